package render

import "image"

// Image wraps a frame buffer as an image, for encoding to PNG or GIF: RGBA
// frames are shared, RGB frames are copied into a new RGBA image.
func Image(frame []byte, width, height int, f Format) *image.RGBA {
	if f == RGBA {
		return &image.RGBA{Pix: frame[:width*height*4], Stride: width * 4, Rect: image.Rect(0, 0, width, height)}
	}
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	for i := 0; i < width*height; i++ {
		img.Pix[4*i], img.Pix[4*i+1], img.Pix[4*i+2], img.Pix[4*i+3] = frame[3*i], frame[3*i+1], frame[3*i+2], 255
	}
	return img
}
