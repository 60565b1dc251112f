/* Attribute edits on the parsed MJCF before it is compiled: `KIND.NAME.ATTR[K]=VALUE` sets
 * attribute ATTR (or its K-th number) of the <KIND name="NAME"> element, so that whatever
 * the compiler derives from it (orientations from euler, frames, fromto, masses and inertia
 * from sizes) follows exactly. The loader then checks the value as if the file said it. */
#include <ctype.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "mjcf_ir.h"


static void edit_fail(cs_mjcf *c, const char *name, const char *what)
{
    if (c->err && c->errsz) snprintf(c->err, c->errsz, "%s: %s: %s", c->file, name, what);
    c->editfail = 1;
    longjmp(c->jb, 1);
}

static xmlNode *find(xmlNode *n, const char *tag, const char *name)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE) continue;
        if (strcmp((const char *)n->name, tag) == 0) {
            xmlChar *v = xmlGetProp(n, (const xmlChar *)"name");
            int hit = v && strcmp((const char *)v, name) == 0;
            xmlFree(v);
            if (hit) return n;
        }
        xmlNode *r = find(n->children, tag, name);
        if (r) return r;
    }
    return NULL;
}

static void edit_one(cs_mjcf *c, xmlNode *root, const char *full, const char *value)
{
    const char *name = strncmp(full, "mjcf.", 5) == 0 ? full + 5 : full;
    char tag[64], elem[128], attr[64], what[1024];
    const char *d1 = strchr(name, '.'), *br = strchr(name, '[');
    size_t len = br ? (size_t)(br - name) : strlen(name);
    const char *d2 = NULL;
    for (const char *p = name; p < name + len; p++)
        if (*p == '.') d2 = p;
    if (!d1 || d2 == d1 || (size_t)(d1 - name) >= sizeof tag ||
        (size_t)(d2 - d1 - 1) >= sizeof elem || (size_t)(name + len - d2 - 1) >= sizeof attr ||
        d2 + 1 == name + len)
        edit_fail(c, full, "expected KIND.NAME.ATTR or KIND.NAME.ATTR[K] (an element's "
                           "attribute: <KIND name=\"NAME\" ATTR=...>)");
    snprintf(tag, sizeof tag, "%.*s", (int)(d1 - name), name);
    snprintf(elem, sizeof elem, "%.*s", (int)(d2 - d1 - 1), d1 + 1);
    snprintf(attr, sizeof attr, "%.*s", (int)(name + len - d2 - 1), d2 + 1);
    long k = -1;
    if (br) {
        char *end;
        k = strtol(br + 1, &end, 10);
        if (!isdigit((unsigned char)br[1]) || strcmp(end, "]") != 0 || k > 1000)
            edit_fail(c, full, "bad element index (expected NAME[K])");
    }
    xmlNode *n = find(root, tag, elem);
    if (!n) {
        snprintf(what, sizeof what, "the scene has no <%s name=\"%s\">", tag, elem);
        edit_fail(c, full, what);
    }
    if (strcmp(attr, "name") == 0 || strcmp(attr, "class") == 0 ||
        strcmp(attr, "childclass") == 0)
        edit_fail(c, full, "names and classes are structure, not parameters");
    char text[1024];
    if (k < 0) {
        snprintf(text, sizeof text, "%s", value);
    } else { /* one number of the attribute as written, the others kept */
        xmlChar *old = xmlGetProp(n, (const xmlChar *)attr);
        if (!old) {
            xmlFree(old);
            snprintf(what, sizeof what, "line %d: <%s name=\"%s\"> does not write '%s': give all "
                                        "its values (%s.%s.%s=\"V1 V2 ...\")",
                     cs_mjcf_line(n), tag, elem, attr, tag, elem, attr);
            edit_fail(c, full, what);
        }
        size_t w = 0;
        long i = 0;
        const char *p = (const char *)old;
        for (;;) {
            while (isspace((unsigned char)*p)) p++;
            if (!*p) break;
            const char *q = p;
            while (*q && !isspace((unsigned char)*q)) q++;
            if (w < sizeof text)
                w += (size_t)snprintf(text + w, sizeof text - w, "%s%.*s", i ? " " : "",
                                      (int)(i == k ? (int)strlen(value) : (int)(q - p)),
                                      i == k ? value : p);
            i++;
            p = q;
        }
        xmlFree(old);
        if (k >= i) {
            snprintf(what, sizeof what, "line %d: index %ld out of range ('%s' has %ld value%s)",
                     cs_mjcf_line(n), k, attr, i, i == 1 ? "" : "s");
            edit_fail(c, full, what);
        }
        if (w >= sizeof text) edit_fail(c, full, "value too long");
    }
    if (!xmlSetProp(n, (const xmlChar *)attr, (const xmlChar *)text)) cs_mjcf_nomem(c);
}

void cs_mjcf_edit(cs_mjcf *c, xmlNode *root, const cs_mjcf_edits *e)
{
    for (int i = 0; e && i < e->n; i++) edit_one(c, root, e->name[i], e->value[i]);
}
