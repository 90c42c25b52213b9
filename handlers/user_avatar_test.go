package handlers_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"selfmap/app/apptest"
)

// bigAvatar is a 4096 x 4096 PNG of 8-bit RGBA, the largest picture the
// upload takes (64 MiB decoded), compressed to a few hundred KiB.
var bigAvatar = sync.OnceValue(func() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 4096, 4096))
	for y := range 4096 {
		for x := range 4096 {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), uint8(x ^ y), 255})
		}
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
})

// peakMemory samples the heap's live objects and the process's resident
// memory until stop is closed, then sends the highest of each.
func peakMemory(stop <-chan struct{}) <-chan [2]uint64 {
	out := make(chan [2]uint64, 1)
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var peak [2]uint64
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			peak[0] = max(peak[0], sample[0].Value.Uint64())
			peak[1] = max(peak[1], residentBytes())
			select {
			case <-stop:
				out <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return out
}

// residentBytes is the process's resident set on Linux (0 elsewhere).
func residentBytes() uint64 {
	buf, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(buf))
	if len(fields) < 2 {
		return 0
	}
	pages, _ := strconv.ParseUint(fields[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

// Twenty uploads of a 4096 x 4096 PNG arriving at once are decoded two at a
// time, so the heap holds about two decoded pictures (64 MiB each) and
// their scaling, not twenty (1.3 GiB and more). The heap's soft limit is
// the one serve sets (48 MiB), so the collector runs as in production. The
// peak heap and resident memory are logged (go test -v -run this test).
func TestAvatarUploadsAtOnceKeepMemoryLow(t *testing.T) {
	const uploads, maxHeap = 20, 320 << 20
	data := bigAvatar()
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		b := newBrowser(t, k.Handler)
		b.register("big@example.com")
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(48 << 20))
		runtime.GC()

		stop := make(chan struct{})
		peak := peakMemory(stop)
		start := time.Now()
		codes := make([]int, uploads)
		var wg sync.WaitGroup
		for i := range uploads {
			wg.Go(func() { codes[i] = b.uploadAvatar(data).Code })
		}
		wg.Wait()
		close(stop)
		p := <-peak
		t.Logf("%d uploads of a %d KiB 4096 x 4096 PNG in %v: peak heap %d MiB, peak resident memory %d MiB",
			uploads, len(data)>>10, time.Since(start).Round(time.Millisecond), p[0]>>20, p[1]>>20)
		for i, code := range codes {
			if code != http.StatusSeeOther {
				t.Fatalf("upload %d: %d", i, code)
			}
		}
		if p[0] > maxHeap {
			t.Errorf("peak heap %d MiB, want at most %d MiB", p[0]>>20, maxHeap>>20)
		}
		if img := b.Get("/user/avatar"); img.Code != http.StatusOK || img.Header().Get("Content-Type") != "image/png" {
			t.Errorf("the stored avatar: %d %s", img.Code, img.Header().Get("Content-Type"))
		}
	}, apptest.WithEnv(map[string]string{"RATE_LIMIT_SCALE": "100"}))
}
