/* sim-internal: PNG files for textures (pngread.c). */
#ifndef CS_PNGREAD_H
#define CS_PNGREAD_H

#include <stddef.h>

/* Reads path into a malloc'd rgb buffer (3 bytes a pixel, rows top to bottom; grey is
 * spread, alpha dropped). Returns 0, or -1 with a message in err (not naming the file). */
int cs_png_decode(const char *path, int *w, int *h, unsigned char **rgb, char *err,
                  size_t errlen);

/* The image's size from its header (0), or -1 with a message. */
int cs_png_size(const char *path, int *w, int *h, char *err, size_t errlen);

#endif
