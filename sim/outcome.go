package sim

// OutcomeKind says what the player's action did.
type OutcomeKind uint8

// Outcome kinds.
const (
	OutNothing   OutcomeKind = iota // noop, or an action that failed: see Reason
	OutMoved                        // turned and moved one tile
	OutBlocked                      // turned but could not move: see Reason
	OutCollected                    // took Count of Item from Material
	OutDrank                        // drank from water
	OutAte                          // ate a cow or a ripe plant (Object)
	OutAttacked                     // hit a creature (Object) without killing it, or killed a zombie or skeleton
	OutPlaced                       // placed Material or Object, using Item
	OutMade                         // made Item
	OutSlept                        // asleep (fell asleep or stayed asleep)
	numOutcomeKinds
)

var outcomeNames = [numOutcomeKinds]string{
	"nothing", "moved", "blocked", "collected", "drank", "ate", "attacked", "placed", "made", "slept",
}

// String returns the kind's name, as used in traces and text.
func (k OutcomeKind) String() string {
	if k < numOutcomeKinds {
		return outcomeNames[k]
	}
	return "unknown"
}

// Reason says why an action failed or fell short. Crafter stays silent;
// the simulation always knows, and the task layer decides what to show.
type Reason uint8

// Reasons.
const (
	ReasonNone            Reason = iota
	ReasonMissingTool            // Missing lists the tools to hold
	ReasonMissingMaterial        // Missing lists the items lacking
	ReasonNeedsNearby            // MissingNearby lists the stations to stand by
	ReasonInvalidTarget          // the faced tile cannot take this action
	ReasonOccupied               // an object stands on the faced tile
	ReasonInventoryFull          // done, but the item was at its maximum: nothing gained
	ReasonNotRipe                // the plant is not ripe yet
	ReasonNotTired               // sleep with full energy
	ReasonNoLuck                 // a chance draw failed (a sapling from grass)
	ReasonWorldFull              // the object array is full
	ReasonNeedsLight             // the tile is dark: hold or place a light
	numReasons
)

var reasonNames = [numReasons]string{
	"", "missing_tool", "missing_material", "needs_nearby", "invalid_target", "occupied",
	"inventory_full", "not_ripe", "not_tired", "no_luck", "world_full", "needs_light",
}

// String returns the reason's snake_case name ("" for none).
func (r Reason) String() string {
	if r < numReasons {
		return reasonNames[r]
	}
	return "unknown"
}

// Events are things that happened during a step besides the action.
type Events uint8

// Events.
const (
	EventWoke     Events = 1 << iota // woke up rested (the wake_up achievement)
	EventWokeHurt                    // woken by damage
	EventHurt                        // lost health this step
	EventDied                        // health reached 0
	EventTimeUp                      // the episode's step limit was reached
)

// Outcome is the structured result of one Step.
type Outcome struct {
	Action   Action
	Kind     OutcomeKind
	Reason   Reason
	Material Material   // the faced tile's material (do, place), or the placed one
	Object   ObjectKind // the faced object (do), or the placed one
	Item     Item       // the item gained, made, or used up
	Count    int8       // how many were gained: 0 when a non-vital item was at its maximum; a vital (drink, food) taken at its maximum still counts, and the inventory clamps it
	Damage   int8       // damage dealt to Object
	Defeated bool       // the attack took the creature's last health
	// Missing holds the items (tools or materials) whose lack made the
	// action fail; MissingNearby the stations that were not within reach.
	Missing       ItemSet
	MissingNearby MaterialSet
	// ReasonOnly is set by a feedback filter that tells an agent why an
	// action failed but not the details: its text then names the reason code
	// alone ("failed (missing_tool)"). Step never sets it.
	ReasonOnly  bool
	Events      Events
	Unlocked    AchievementSet // achievements unlocked for the first time
	HealthDelta int8           // health change since the previous step
	Done        bool
}

// Reward is Crafter's reward for the step: +1 if at least one achievement
// was unlocked for the first time during it (+1 however many were), plus
// the health change divided by 10.
func (o *Outcome) Reward() float64 { return float64(o.RewardTenths()) / 10 }

// RewardTenths is Reward in tenths, exactly: what sums of rewards over an
// episode are kept in (runner results, trace metrics, the browser's HUD).
func (o *Outcome) RewardTenths() int64 {
	var unlock int64
	if o.Unlocked != 0 {
		unlock = 10
	}
	return unlock + int64(o.HealthDelta)
}

// Failed reports whether the action did not do what it asks.
func (o *Outcome) Failed() bool {
	return o.Kind == OutBlocked || (o.Kind == OutNothing && o.Reason != ReasonNone)
}
