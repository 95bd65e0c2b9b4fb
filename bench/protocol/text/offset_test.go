package text

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOffset(t *testing.T) {
	assert.Equal(t, "here", Offset(0, 0))
	assert.Equal(t, "2 north, 3 west", Offset(-3, -2))
	assert.Equal(t, "1 east", Offset(1, 0))
	assert.Equal(t, "4 south", Offset(0, 4))
}
