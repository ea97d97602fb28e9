// The part of libpng the lab uses, for the one Swift module that imports it (SwizzleLab): the
// "simplified" API of libpng 1.6, which reports errors in the image's message instead of through
// setjmp/longjmp (which Swift cannot use).
#ifndef SWIZZLEKIT_CPNG_SHIM_H
#define SWIZZLEKIT_CPNG_SHIM_H

#include <png.h>
#include <string.h>

/// Writes `width` x `height` RGBA pixels (8 bits a channel, rows top to bottom, no padding) to
/// `path`. Returns 0, or 1 with libpng's message copied to `message` (64 bytes).
static inline int cpng_write_rgba(
    const char *path, const unsigned char *pixels, unsigned width, unsigned height,
    char *message) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = PNG_FORMAT_RGBA;
  if (png_image_write_to_file(&image, path, 0, pixels, 0, NULL)) return 0;
  strncpy(message, image.message, 63);
  message[63] = 0;
  return 1;
}

/// Reads the PNG at `path`: its size into `width` and `height`, and, when `pixels` is not NULL,
/// its pixels as RGBA into `pixels` (`width` x `height` x 4 bytes, which the caller sized from a
/// first call with NULL). Returns 0, or 1 with libpng's message in `message` (64 bytes).
static inline int cpng_read_rgba(
    const char *path, unsigned *width, unsigned *height, unsigned char *pixels, char *message) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path)) {
    strncpy(message, image.message, 63);
    message[63] = 0;
    return 1;
  }
  *width = image.width;
  *height = image.height;
  if (pixels == NULL) {
    png_image_free(&image);
    return 0;
  }
  image.format = PNG_FORMAT_RGBA;
  if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
    strncpy(message, image.message, 63);
    message[63] = 0;
    return 1;
  }
  return 0;
}

#endif
