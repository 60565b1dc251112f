/* Linked into every program that loads Mesa. Under LeakSanitizer the leak check at exit
 * otherwise runs last of all, from the sanitizer runtime's own finalizer, after Mesa's and
 * LLVM's destructors have torn their state down; its stop-the-world tracer then now and
 * then crashes ("Tracer caught signal 11") instead of reporting. Registered before main,
 * this handler runs after every exit handler registered later (Mesa's queue shutdown among
 * them) and before any library's destructor, so the check sees the process as the program
 * left it. Without LeakSanitizer it compiles to nothing. */
#if defined(__SANITIZE_ADDRESS__)
#define CS_HAVE_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define CS_HAVE_LSAN 1
#endif
#endif

#ifdef CS_HAVE_LSAN
#include <sanitizer/lsan_interface.h>
#include <stdlib.h>

static void leak_check_now(void)
{
    __lsan_do_leak_check();
}

__attribute__((constructor)) static void register_leak_check(void)
{
    atexit(leak_check_now);
}
#else
typedef int cs_exit_leak_check_unused; /* ISO C: a translation unit holds a declaration */
#endif
