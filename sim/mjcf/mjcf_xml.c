/* Reading XML files: the whole file in memory, libxml2's reports kept for our messages,
 * and <include> expanded in place with each file's line numbering. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"

#include "mjcf_read.h"

static void silent(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

static void silent_structured(void *ctx, const xmlError *e)
{
    (void)ctx;
    (void)e;
}

static void first_error(void *ctx, const xmlError *e)
{
    cs_mjcf_notes *pn = ((xmlParserCtxt *)ctx)->_private;
    if (!e || e->level < XML_ERR_ERROR || pn->err_msg[0]) return;
    pn->err_line = e->line;
    snprintf(pn->err_msg, sizeof pn->err_msg, "%s", e->message ? e->message : "unreadable XML");
    size_t l = strlen(pn->err_msg);
    while (l && (pn->err_msg[l - 1] == '\n' || pn->err_msg[l - 1] == ' ')) pn->err_msg[--l] = 0;
}

static void note_entity(void *ctx, const xmlChar *name)
{
    xmlParserCtxt *px = ctx;
    cs_mjcf_notes *pn = px->_private;
    if (pn->entity_line) return;
    pn->entity_line = px->input ? px->input->line : 1;
    snprintf(pn->entity, sizeof pn->entity, "%s", name ? (const char *)name : "");
}

/* MuJoCo's parser knows no DTDs: a declared entity would change what the file says */
static void on_entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *publicId,
                           const xmlChar *systemId, xmlChar *content)
{
    (void)type, (void)publicId, (void)systemId, (void)content;
    note_entity(ctx, name);
}

static void on_unparsed_entity_decl(void *ctx, const xmlChar *name, const xmlChar *publicId,
                                    const xmlChar *systemId, const xmlChar *notationName)
{
    (void)publicId, (void)systemId, (void)notationName;
    note_entity(ctx, name);
}

static void on_reference(void *ctx, const xmlChar *name) { note_entity(ctx, name); }


void cs_mjcf_xml_quiet(void)
{
    xmlSetGenericErrorFunc(NULL, silent);
    xmlSetStructuredErrorFunc(NULL, (xmlStructuredErrorFunc)silent_structured);
}

void cs_mjcf_xml_hooks(xmlParserCtxt *px, cs_mjcf_notes *pn)
{
    px->_private = pn;
    px->sax->serror = (xmlStructuredErrorFunc)first_error; /* const in newer libxml2 */
    px->sax->entityDecl = on_entity_decl;
    px->sax->unparsedEntityDecl = on_unparsed_entity_decl;
    px->sax->reference = on_reference;
}

/* The whole file in memory (read here, not by libxml2, so that a signal interrupts a read
 * that blocks, e.g. on a FIFO without a writer, instead of being retried). Returns 0, or
 * an errno value. */
int cs_mjcf_read_all(const char *path, char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    size_t cap = 1 << 16, n = 0;
    char *b = cs_malloc(cap);
    int rc = b ? 0 : ENOMEM;
    while (rc == 0) {
        if (n == cap) {
            char *nb = cap > SIZE_MAX / 2 ? NULL : cs_realloc(b, cap * 2);
            if (!nb) {
                rc = ENOMEM;
                break;
            }
            b = nb;
            cap *= 2;
        }
        ssize_t r = read(fd, b + n, cap - n);
        if (r < 0) rc = errno;
        else if (r == 0) break;
        else n += (size_t)r;
    }
    close(fd);
    if (rc == 0 && n > INT_MAX) rc = EFBIG; /* libxml2 takes an int length */
    if (rc) {
        cs_free(b);
        return rc;
    }
    *buf = b;
    *len = n;
    return 0;
}

/* ---- <include> ------------------------------------------------------------------------ */
int cs_mjcf_count_lines(const char *buf, size_t len)
{
    int n = 1;
    for (size_t i = 0; i < len; i++) n += buf[i] == '\n';
    return n;
}

/* a path's directory with its trailing '/', "" for a bare name */
static char *dir_of(cs_mjcf *c, const char *path)
{
    const char *sl = strrchr(path, '/');
    size_t n = sl ? (size_t)(sl - path + 1) : 0;
    char *d = cs_mjcf_alloc(c, n + 1);
    memcpy(d, path, n);
    d[n] = 0;
    return d;
}

static char *join_path(cs_mjcf *c, const char *dir, const char *file)
{
    size_t n = strlen(dir) + strlen(file) + 1;
    char *p = cs_mjcf_alloc(c, n);
    snprintf(p, n, "%s%s", dir, file);
    return p;
}

void cs_mjcf_add_src(cs_mjcf *c, const char *path, const char *real, int nlines, int parent,
                    int line)
{
    cs_mjcf_grow(c, (void **)&c->src, &c->capsrc, c->nsrc, sizeof *c->src);
    cs_srcfile *s = &c->src[c->nsrc];
    memset(s, 0, sizeof *s);
    s->path = cs_mjcf_strdup(c, path);
    s->dir = dir_of(c, path);
    s->real = real ? cs_mjcf_strdup(c, real) : NULL;
    s->base = c->nsrc ? c->src[c->nsrc - 1].base + c->src[c->nsrc - 1].nlines : 0;
    s->nlines = nlines;
    s->parent = parent;
    s->line = line;
    c->nsrc++;
}

/* every node below n (and n) carries the included file's line base */
static void set_base(xmlNode *n, int base)
{
    n->_private = (void *)(intptr_t)base;
    for (xmlNode *ch = n->children; ch; ch = ch->next) set_base(ch, base);
}

void cs_mjcf_free_include(cs_mjcf *c)
{
    if (c->incdoc) xmlFreeDoc(c->incdoc);
    if (c->incpx) xmlFreeParserCtxt(c->incpx);
    cs_free(c->incbuf);
    c->incdoc = c->incpx = NULL;
    c->incbuf = NULL;
}


size_t cs_mjcf_read_file(cs_mjcf *c, xmlNode *n, const char *path)
{
    struct stat st;
    int rc = stat(path, &st) ? errno : 0;
    if (!rc && !S_ISREG(st.st_mode)) /* a device or a pipe could be endless or block */
        FAILN(c, n, "file", "'%s' is not a regular file", path);
    size_t len = 0;
    if (!rc) rc = cs_mjcf_read_all(path, &c->incbuf, &len);
    if (rc == ENOMEM) cs_mjcf_nomem(c);
    if (rc) FAILN(c, n, "file", "cannot read '%s': %s", path, strerror(rc));
    return len;
}

xmlDoc *cs_mjcf_parse_file(cs_mjcf *c, const char *path, const char *real, size_t len,
                           int parent, int pline, int model)
{
    cs_mjcf_add_src(c, path, real, cs_mjcf_count_lines(c->incbuf, len), parent, pline);
    c->src[c->nsrc - 1].model = model;
    int base = c->src[c->nsrc - 1].base;
    const char *nul = memchr(c->incbuf, 0, len);
    if (nul) {
        int l = 1;
        for (const char *p = c->incbuf; p < nul; p++) l += *p == '\n';
        cs_mjcf_fail(c, base + l, NULL, NULL, "NUL byte (not allowed in XML)");
    }
    xmlParserCtxt *px = xmlNewParserCtxt();
    if (!px) cs_mjcf_nomem(c);
    c->incpx = px;
    cs_mjcf_notes pn = {0};
    cs_mjcf_xml_hooks(px, &pn);
    xmlDoc *doc = xmlCtxtReadMemory(px, c->incbuf, (int)len, path, NULL, CS_MJCF_XMLOPTS);
    c->incdoc = doc;
    if (pn.entity_line)
        cs_mjcf_fail(c, base + pn.entity_line, NULL, NULL,
                     "entity '%s': DOCTYPE entities are not supported (MJCF has no DTD)",
                     pn.entity);
    if (!doc) {
        const xmlError *e = xmlCtxtGetLastError(px);
        if (!pn.err_msg[0] && e && e->code == XML_ERR_NO_MEMORY) cs_mjcf_nomem(c);
        cs_mjcf_fail(c, base + (pn.err_msg[0] ? pn.err_line : e ? e->line : 0), NULL, NULL,
                     "malformed XML: %s", pn.err_msg[0] ? pn.err_msg : "unreadable XML");
    }
    return doc;
}

/* Replaces <include file> by the elements inside the file's root element, as MuJoCo does (a
 * file name is tried in the main file's directory, then in the including file's); returns
 * the first element brought in, or what followed the <include>. A file is included once:
 * a second time (an include cycle among them) is an error. */
static xmlNode *include_file(cs_mjcf *c, xmlDoc *doc, xmlNode *n)
{
    cs_mjcf_check(c, n, (const char *const[]){"file", NULL}, NULL);
    for (xmlNode *ch = n->children; ch; ch = ch->next)
        if (ch->type == XML_ELEMENT_NODE) FAILN(c, n, NULL, "an <include> cannot have children");
    char *file = cs_mjcf_attr(c, n, "file");
    if (!file || !*file) FAILN(c, n, "file", "required attribute missing");
    int me = cs_mjcf_src_of_line(c, cs_mjcf_line(n)), line = cs_mjcf_line(n) - c->src[me].base;
    /* the document's main file: the model's, or an attached model's (mjcf_attach.c) */
    int top = me;
    while (top > 0 && !c->src[top].model) top = c->src[top].parent;
    char *path = file[0] == '/' ? file : join_path(c, c->src[top].dir, file);
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT && file[0] != '/' &&
        strcmp(c->src[me].dir, c->src[top].dir) != 0)
        path = join_path(c, c->src[me].dir, file);
    size_t len = cs_mjcf_read_file(c, n, path);
    char real[PATH_MAX];
    if (!realpath(path, real)) snprintf(real, sizeof real, "%s", path);
    for (int j = me; j >= 0; j = c->src[j].parent)
        if (c->src[j].real && strcmp(c->src[j].real, real) == 0)
            FAILN(c, n, "file", "include cycle: '%s' is already being read (it includes itself, directly or through other files)",
                  path);
    for (int j = 0; j < c->nsrc; j++) {
        int tj = j;
        while (tj > 0 && !c->src[tj].model) tj = c->src[tj].parent;
        if (tj == top && c->src[j].real && strcmp(c->src[j].real, real) == 0)
            FAILN(c, n, "file", "'%s' is already included (MuJoCo includes a file once)", path);
    }
    xmlDoc *idoc = cs_mjcf_parse_file(c, path, real, len, me, line, 0);
    int base = c->src[c->nsrc - 1].base;
    xmlNode *root = xmlDocGetRootElement(idoc), *first = NULL;
    for (xmlNode *ch = root ? root->children : NULL; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        xmlNode *cp = xmlDocCopyNode(ch, doc, 1);
        if (!cp) cs_mjcf_nomem(c);
        set_base(cp, base);
        xmlAddPrevSibling(n, cp);
        if (!first) first = cp;
    }
    if (!first)
        FAILN(c, n, "file", "'%s' has no elements inside its root element (an empty include)",
              path);
    cs_mjcf_free_include(c);
    xmlUnlinkNode(n);
    xmlFreeNode(n);
    return first;
}

void cs_mjcf_expand_includes(cs_mjcf *c, xmlDoc *doc, xmlNode *parent)
{
    xmlNode *ch = parent->children;
    while (ch) {
        if (ch->type == XML_ELEMENT_NODE && strcmp(cs_mjcf_ename(ch), "include") == 0) {
            ch = include_file(c, doc, ch);
            continue;
        }
        if (ch->type == XML_ELEMENT_NODE) cs_mjcf_expand_includes(c, doc, ch);
        ch = ch->next;
    }
}
