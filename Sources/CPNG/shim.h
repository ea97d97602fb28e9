// The part of libpng SwizzleKit uses, for the one Swift module that imports it
// (ScreenRendering): 8-bit RGBA images written to and read from PNG files. libpng reports errors
// through setjmp/longjmp, which Swift cannot use, so these C functions catch them and copy
// libpng's message out instead.
#ifndef SWIZZLEKIT_CPNG_SHIM_H
#define SWIZZLEKIT_CPNG_SHIM_H

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Where libpng's error handler jumps back to, and where it leaves its message (64 bytes).
typedef struct {
  jmp_buf jump;
  char *message;
} cpng_context;

static void cpng_error(png_structp png, png_const_charp text) {
  cpng_context *context = (cpng_context *)png_get_error_ptr(png);
  strncpy(context->message, text, 63);
  context->message[63] = 0;
  longjmp(context->jump, 1);
}

static void cpng_warning(png_structp png, png_const_charp text) {
  (void)png;
  (void)text;
}

static void cpng_fail(char *message, const char *text) {
  strncpy(message, text, 63);
  message[63] = 0;
}

/// Writes `width` x `height` RGBA pixels (8 bits a channel, rows top to bottom, no padding) to
/// `path`, unfiltered (the screens drawn are flat colours, which compress as well without
/// filters and read back faster). Returns 0, or 1 with the reason in `message` (64 bytes).
__attribute__((noinline)) static int cpng_write_rgba(
    const char *path, const unsigned char *pixels, unsigned width, unsigned height,
    char *message) {
  FILE *file = fopen(path, "wb");
  if (file == NULL) {
    cpng_fail(message, strerror(errno));
    return 1;
  }
  cpng_context context;
  context.message = message;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, cpng_error,
                                            cpng_warning);
  png_infop info = png == NULL ? NULL : png_create_info_struct(png);
  png_bytep *volatile rows = NULL;
  if (png == NULL || info == NULL) {
    png_destroy_write_struct(&png, &info);
    fclose(file);
    cpng_fail(message, "out of memory");
    return 1;
  }
  if (setjmp(context.jump)) {
    png_destroy_write_struct(&png, &info);
    free(rows);
    fclose(file);
    return 1;
  }
  png_init_io(png, file);
  png_set_filter(png, 0, PNG_FILTER_NONE);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  rows = (png_bytep *)malloc(sizeof(png_bytep) * (height == 0 ? 1 : height));
  if (rows == NULL) png_error(png, "out of memory");
  for (unsigned row = 0; row < height; row++) {
    rows[row] = (png_bytep)pixels + (size_t)row * width * 4;
  }
  png_write_info(png, info);
  png_write_image(png, rows);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  free(rows);
  if (fclose(file) != 0) {
    cpng_fail(message, strerror(errno));
    return 1;
  }
  return 0;
}

/// Reads the PNG at `path`: its size into `width` and `height`, and, when `pixels` is not NULL,
/// its pixels as 8-bit RGBA into `pixels`, which holds `width` x `height` x 4 bytes of the size
/// given in (the caller sized it from a first call with NULL; a file whose size changed since is
/// refused, never written past the buffer): palettes and greys expanded, 16-bit channels cut to 8, an opaque
/// alpha added where there is none. The zlib stream's checksum is not verified (libpng's
/// PNG_IGNORE_ADLER32; each chunk's CRC still is). Returns 0, or 1 with the reason in `message`
/// (64 bytes).
__attribute__((noinline)) static int cpng_read_rgba(
    const char *path, unsigned *width, unsigned *height, unsigned char *pixels, char *message) {
  FILE *file = fopen(path, "rb");
  if (file == NULL) {
    cpng_fail(message, strerror(errno));
    return 1;
  }
  unsigned char signature[8];
  if (fread(signature, 1, 8, file) != 8 || png_sig_cmp(signature, 0, 8) != 0) {
    fclose(file);
    cpng_fail(message, "not a PNG file");
    return 1;
  }
  cpng_context context;
  context.message = message;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, cpng_error,
                                           cpng_warning);
  png_infop info = png == NULL ? NULL : png_create_info_struct(png);
  png_bytep *volatile rows = NULL;
  if (png == NULL || info == NULL) {
    png_destroy_read_struct(&png, &info, NULL);
    fclose(file);
    cpng_fail(message, "out of memory");
    return 1;
  }
  if (setjmp(context.jump)) {
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    fclose(file);
    return 1;
  }
#if defined(PNG_IGNORE_ADLER32)
  png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
  png_init_io(png, file);
  png_set_sig_bytes(png, 8);
  png_read_info(png, info);
  unsigned expected_width = *width;
  unsigned expected_height = *height;
  *width = png_get_image_width(png, info);
  *height = png_get_image_height(png, info);
  if (pixels != NULL && (*width != expected_width || *height != expected_height)) {
    png_error(png, "the file changed while it was read");
  }
  if (pixels == NULL) {
    png_destroy_read_struct(&png, &info, NULL);
    fclose(file);
    return 0;
  }
  png_set_expand(png);
  png_set_strip_16(png);
  png_set_gray_to_rgb(png);
  png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != (size_t)*width * 4) {
    png_error(png, "cannot read as 8-bit RGBA");
  }
  rows = (png_bytep *)malloc(sizeof(png_bytep) * (*height == 0 ? 1 : *height));
  if (rows == NULL) png_error(png, "out of memory");
  for (unsigned row = 0; row < *height; row++) {
    rows[row] = pixels + (size_t)row * *width * 4;
  }
  png_read_image(png, rows);
  png_read_end(png, NULL);
  png_destroy_read_struct(&png, &info, NULL);
  free(rows);
  fclose(file);
  return 0;
}

#endif
