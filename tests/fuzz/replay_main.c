/* Without libFuzzer: feed every file named on the command line (or inside a directory
 * named there) to the target once, so the regression corpus runs as a plain test. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int one(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return 1;
    }
    size_t cap = 1 << 16, n = 0, r;
    uint8_t *buf = malloc(cap);
    if (!buf) return 1;
    while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            uint8_t *b = realloc(buf, cap *= 2);
            if (!b) return 1;
            buf = b;
        }
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int bad = 0, count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            struct dirent **list;
            int k = scandir(argv[i], &list, NULL, alphasort);
            for (int j = 0; j < k; j++) {
                char p[4096];
                snprintf(p, sizeof p, "%s/%s", argv[i], list[j]->d_name);
                if (list[j]->d_name[0] != '.' && stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
                    bad |= one(p);
                    count++;
                }
                free(list[j]);
            }
            free(list);
        } else {
            bad |= one(argv[i]);
            count++;
        }
    }
    printf("%d inputs replayed\n", count);
    return bad || count == 0;
}
