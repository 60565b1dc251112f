/* Mesh files: binary and ASCII STL, OBJ (v, vt and f records; the rest is ignored), MuJoCo's
 * binary MSH. */
#ifndef CS_MESHFILE_H
#define CS_MESHFILE_H

#include <stddef.h>

typedef struct {
    double *vert;   /* 3 per vertex */
    int nvert;
    int *face;      /* 3 vertex indices per triangle (OBJ polygons are fanned) */
    int nface;
    /* texture coordinates (OBJ vt, MSH texcoords; NULL when the file has none): 2 per
     * coordinate, v counted from the image's top row (an OBJ's v flipped, as MuJoCo
     * does), and per triangle the 3 coordinate indices of its corners */
    double *texcoord;
    int ntexcoord;
    int *facetexcoord;
} cs_meshfile;

enum { CS_MESHFILE_AUTO = 0, CS_MESHFILE_STL = 1, CS_MESHFILE_OBJ = 2, CS_MESHFILE_MSH = 3 };

/* Read a mesh file; the format from `format`, or by the extension (.stl, .obj, .msh, any case)
 * for CS_MESHFILE_AUTO. STL vertices shared by triangles are merged (as MuJoCo does).
 * Returns 0, or -1 with a message in err and, when the error is at a line of a text file,
 * that line in *line (else 0). */
int cs_meshfile_read(const char *path, int format, cs_meshfile *out, char *err, size_t errlen,
                     int *line);
/* The same from memory (tests); `name` only chooses the format when format is AUTO. */
int cs_meshfile_parse(const char *buf, size_t len, const char *name, int format,
                      cs_meshfile *out, char *err, size_t errlen, int *line);
void cs_meshfile_free(cs_meshfile *m);

#endif
