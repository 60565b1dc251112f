/* A small PNG reader for textures: the simulator library stays free of libpng (only the
 * viewer links it), and zlib is already loaded with libxml2. Non-interlaced images of every
 * colour type and bit depth, to 8-bit RGB. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "pngread.h"

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* sample k of a row of samples of `depth` bits, scaled to 0..255 */
static int sample(const unsigned char *row, long k, int depth, int scale)
{
    if (depth == 8) return row[k];
    if (depth == 16) return row[2 * k];
    int per = 8 / depth, shift = 8 - depth * (int)(k % per + 1);
    int v = (row[k / per] >> shift) & ((1 << depth) - 1);
    return scale ? v * 255 / ((1 << depth) - 1) : v;
}

int cs_png_size(const char *path, int *w, int *h, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open");
        return -1;
    }
    unsigned char b[24];
    size_t k = fread(b, 1, sizeof b, f);
    fclose(f);
    static const unsigned char SIG[8] = {137, 'P', 'N', 'G', 13, 10, 26, 10};
    if (k < sizeof b || memcmp(b, SIG, 8) != 0 || memcmp(b + 12, "IHDR", 4) != 0) {
        snprintf(err, errlen, "not a PNG file");
        return -1;
    }
    uint32_t W = be32(b + 16), H = be32(b + 20);
    if (W < 1 || H < 1 || W > 16384 || H > 16384 * 6) {
        snprintf(err, errlen, "image size %ux%u out of range", W, H);
        return -1;
    }
    *w = (int)W;
    *h = (int)H;
    return 0;
}

int cs_png_decode(const char *path, int *w, int *h, unsigned char **rgb, char *err, size_t errlen)
{
    *rgb = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open");
        return -1;
    }
    unsigned char *file = NULL, *idat = NULL, *raw = NULL, *out = NULL;
    size_t nfile = 0, cap = 0, nidat = 0;
    for (;;) {
        if (nfile == cap) {
            cap = cap ? 2 * cap : 65536;
            unsigned char *g = realloc(file, cap);
            if (!g) goto nomem;
            file = g;
        }
        size_t k = fread(file + nfile, 1, cap - nfile, f);
        nfile += k;
        if (k == 0) break;
    }
    fclose(f);
    f = NULL;
    static const unsigned char SIG[8] = {137, 'P', 'N', 'G', 13, 10, 26, 10};
    if (nfile < 8 + 25 || memcmp(file, SIG, 8) != 0 || memcmp(file + 12, "IHDR", 4) != 0) {
        snprintf(err, errlen, "not a PNG file");
        goto fail;
    }
    uint32_t W = be32(file + 16), H = be32(file + 20);
    int depth = file[24], ctype = file[25], interlace = file[28];
    static const int CH[7] = {1, 0, 3, 1, 2, 0, 4};
    int okdepth = depth == 8 || depth == 16 ||
                  ((ctype == 0 || ctype == 3) && (depth == 1 || depth == 2 || depth == 4));
    if (ctype > 6 || CH[ctype] == 0 || !okdepth || (ctype == 3 && depth == 16)) {
        snprintf(err, errlen, "unsupported PNG colour type %d with bit depth %d", ctype, depth);
        goto fail;
    }
    if (interlace) {
        snprintf(err, errlen, "interlaced PNG images are not supported");
        goto fail;
    }
    if (W < 1 || H < 1 || W > 16384 || H > 16384 * 6) {
        snprintf(err, errlen, "image size %ux%u out of range", W, H);
        goto fail;
    }
    unsigned char pal[256 * 3];
    int npal = 0;
    for (size_t p = 8; p + 12 <= nfile;) {
        uint32_t len = be32(file + p);
        if (len > nfile - p - 12) {
            snprintf(err, errlen, "truncated PNG chunk");
            goto fail;
        }
        const unsigned char *type = file + p + 4, *body = file + p + 8;
        if (memcmp(type, "PLTE", 4) == 0 && len <= sizeof pal) {
            npal = (int)len / 3;
            memcpy(pal, body, len);
        } else if (memcmp(type, "IDAT", 4) == 0) {
            unsigned char *g = realloc(idat, nidat + len + 1);
            if (!g) goto nomem;
            idat = g;
            memcpy(idat + nidat, body, len);
            nidat += len;
        } else if (memcmp(type, "IEND", 4) == 0) {
            break;
        }
        p += 12 + len;
    }
    if (ctype == 3 && npal == 0) {
        snprintf(err, errlen, "palette image without a palette");
        goto fail;
    }
    int ch = CH[ctype], bpp = (ch * depth + 7) / 8;
    size_t stride = ((size_t)W * ch * depth + 7) / 8;
    uLongf nraw = (uLongf)((stride + 1) * H);
    raw = malloc(nraw);
    out = malloc((size_t)W * H * 3);
    if (!raw || !out) goto nomem;
    uLongf got = nraw;
    if (!idat || uncompress(raw, &got, idat, nidat) != Z_OK || got != nraw) {
        snprintf(err, errlen, "corrupt or truncated PNG image data");
        goto fail;
    }
    for (uint32_t y = 0; y < H; y++) {
        unsigned char *row = raw + y * (stride + 1) + 1, ft = row[-1];
        const unsigned char *up = y ? row - (stride + 1) : NULL;
        if (ft > 4) {
            snprintf(err, errlen, "corrupt PNG row filter");
            goto fail;
        }
        for (size_t x = 0; x < stride; x++) {
            int a = x >= (size_t)bpp ? row[x - bpp] : 0, b = up ? up[x] : 0;
            int c = x >= (size_t)bpp && up ? up[x - bpp] : 0;
            int add = ft == 1 ? a : ft == 2 ? b : ft == 3 ? (a + b) / 2 : ft == 4 ? paeth(a, b, c) : 0;
            row[x] = (unsigned char)(row[x] + add);
        }
        for (uint32_t x = 0; x < W; x++) {
            unsigned char *o = out + 3 * ((size_t)y * W + x);
            if (ctype == 3) {
                int i = sample(row, x, depth, 0);
                if (i >= npal) i = 0;
                memcpy(o, pal + 3 * i, 3);
            } else if (ch <= 2) {
                o[0] = o[1] = o[2] = (unsigned char)sample(row, (long)x * ch, depth, 1);
            } else {
                for (int k = 0; k < 3; k++) o[k] = (unsigned char)sample(row, (long)x * ch + k, depth, 1);
            }
        }
    }
    free(file);
    free(idat);
    free(raw);
    *w = (int)W;
    *h = (int)H;
    *rgb = out;
    return 0;
nomem:
    snprintf(err, errlen, "out of memory");
fail:
    if (f) fclose(f);
    free(file);
    free(idat);
    free(raw);
    free(out);
    return -1;
}
