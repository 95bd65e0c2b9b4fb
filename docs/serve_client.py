#!/usr/bin/env python3
"""A Longcraft environment-server client in plain Python (urllib + json).

It creates one episode on a running `longcraft serve`, plays random
actions until the episode is terminated or truncated, prints the return
and deletes the episode:

    longcraft serve &
    python3 docs/serve_client.py http://127.0.0.1:8642
    python3 docs/serve_client.py http://127.0.0.1:8642 --family collect --tier medium --index 3
    python3 docs/serve_client.py http://127.0.0.1:8642 --seed 7 --budget 500

`Env` is a small Gymnasium-shaped wrapper (reset, step, close) to start
your own agent from; docs/serve.md documents every route.
"""

import argparse
import json
import random
import sys
import urllib.error
import urllib.request


class ServeError(Exception):
    """An error answer from the server: its HTTP status and message."""

    def __init__(self, status, message):
        super().__init__(f"HTTP {status}: {message}")
        self.status = status
        self.message = message


class Client:
    """JSON over HTTP to one server."""

    def __init__(self, base_url, timeout=60):
        self.base = base_url.rstrip("/")
        self.timeout = timeout

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        headers = {"Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                message = json.loads(raw).get("error", "")
            except ValueError:
                message = raw.decode(errors="replace")
            raise ServeError(e.code, message) from None
        return json.loads(raw) if raw else None


class Env:
    """One episode, Gymnasium-style: reset() -> (observation, info);
    step(action) -> (observation, reward, terminated, truncated, info)."""

    def __init__(self, client, **spec):
        self.client = client
        self.spec = spec
        self.id = None

    def reset(self):
        self.close()
        res = self.client.call("POST", "/v1/episodes", self.spec)
        self.id = res["id"]
        return res["observation"], res["info"]

    def step(self, action):
        res = self.client.call("POST", f"/v1/episodes/{self.id}/step", {"action": action})
        return res["observation"], res["reward"], res["terminated"], res["truncated"], res["info"]

    def close(self):
        if self.id is not None:
            try:
                self.client.call("DELETE", f"/v1/episodes/{self.id}")
            except ServeError as e:
                if e.status != 404:  # already expired is fine
                    raise
            self.id = None


def main(argv=None):
    p = argparse.ArgumentParser(description="Play one random episode on a Longcraft environment server.")
    p.add_argument("url", nargs="?", default="http://127.0.0.1:8642", help="server URL (default %(default)s)")
    p.add_argument("--family", default="obtain", help="task family (default %(default)s)")
    p.add_argument("--tier", default="easy", help="tier: easy, medium, hard, expert (default %(default)s)")
    p.add_argument("--split", default="train", help="split: train or eval (default %(default)s)")
    p.add_argument("--index", type=int, default=0, help="task index (default %(default)s)")
    p.add_argument("--seed", type=int, help="play a plain seeded world instead of a task")
    p.add_argument("--ruleset", default="classic", help="ruleset of a plain world (default %(default)s)")
    p.add_argument("--budget", type=int, default=0, help="step budget (0: the task's or the ruleset's)")
    p.add_argument("--rng-seed", type=int, help="seed of the random actions (default: random)")
    args = p.parse_args(argv)

    client = Client(args.url)
    health = client.call("GET", "/v1/health")
    if args.seed is not None:
        spec = {"seed": args.seed, "ruleset": args.ruleset}
    else:
        spec = {"family": args.family, "tier": args.tier, "split": args.split, "index": args.index}
    if args.budget:
        spec["budget"] = args.budget

    rng = random.Random(args.rng_seed)
    env = Env(client, **spec)
    try:
        obs, info = env.reset()
        print(f"server {health['version']}, episode {env.id}")
        print(info["task"])
        total, terminated, truncated = 0.0, False, False
        while not (terminated or truncated):
            obs, reward, terminated, truncated, step_info = env.step(rng.choice(obs["actions"]))
            total += reward
        end = "terminated" if terminated else "truncated"
        print(f"last outcome: {step_info['outcome']}")
        print(f"return {total:.1f} after {step_info['steps']} steps ({end}, success {str(step_info['success']).lower()})")
    finally:
        env.close()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ServeError as e:
        print(f"serve_client: {e}", file=sys.stderr)
        sys.exit(1)
    except urllib.error.URLError as e:
        print(f"serve_client: cannot reach the server: {e.reason}", file=sys.stderr)
        sys.exit(1)
