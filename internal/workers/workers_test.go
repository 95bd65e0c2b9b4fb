package workers

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryJobOnce: every job runs once, on a worker with its own state,
// whatever the worker count; states are released.
func TestEveryJobOnce(t *testing.T) {
	for _, workers := range []int{0, 1, 3, 100} {
		var mu sync.Mutex
		ran := map[int]int{}
		var made, released atomic.Int64
		err := Pool[*int]{Jobs: 50, Workers: workers,
			New:     func(k int) (*int, error) { made.Add(1); v := k; return &v, nil },
			Release: func(*int) { released.Add(1) },
		}.Run(context.Background(), func(s *int, i int) error {
			mu.Lock()
			ran[i]++
			mu.Unlock()
			return nil
		})
		require.NoError(t, err)
		require.Len(t, ran, 50)
		for i, n := range ran {
			assert.Equal(t, 1, n, "job %d", i)
		}
		assert.Equal(t, made.Load(), released.Load())
		assert.LessOrEqual(t, made.Load(), int64(50), "never more workers than jobs")
	}
}

// TestStops: the first error and a cancellation stop the start of jobs
// and are returned.
func TestStops(t *testing.T) {
	boom := errors.New("boom")
	var ran atomic.Int64
	err := Pool[int]{Jobs: 1000, Workers: 2, New: func(int) (int, error) { return 0, nil }}.Run(context.Background(), func(_ int, i int) error {
		ran.Add(1)
		if i == 3 {
			return boom
		}
		return nil
	})
	assert.ErrorIs(t, err, boom)
	assert.Less(t, ran.Load(), int64(1000))

	ctx, cancel := context.WithCancel(context.Background())
	ran.Store(0)
	err = Pool[int]{Jobs: 1000, Workers: 2, New: func(int) (int, error) { return 0, nil }}.Run(ctx, func(_ int, i int) error {
		if ran.Add(1) == 5 {
			cancel()
		}
		return nil
	})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Less(t, ran.Load(), int64(1000))

	err = Pool[int]{Jobs: 10, New: func(int) (int, error) { return 0, boom }}.Run(context.Background(), func(int, int) error { return nil })
	assert.ErrorIs(t, err, boom, "a worker that cannot start")
}
