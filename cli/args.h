/* Strict command-line number parsing shared by the subcommands. */
#ifndef CS_CLI_ARGS_H
#define CS_CLI_ARGS_H

enum { CS_ARG_OK = 0, CS_ARG_NAN = -1, CS_ARG_INF = -2, CS_ARG_EMPTY = -3, CS_ARG_MANY = -4 };

/* The whole of text must be one finite number (strtod syntax, no trailing junk). */
int cs_arg_number(const char *text, double *out);

/* Whole-text integer / finite number: 1 if it parses, else 0 (for simple option checks). */
int cs_arg_long(const char *text, long *out);
int cs_arg_double(const char *text, double *out);

/* Comma-separated finite numbers, at most max of them. On error *bad is the 1-based
 * item at fault (for CS_ARG_MANY the count found so far + 1). */
int cs_arg_list(const char *text, double *out, int max, int *count, int *bad);

/* round(duration / timestep) steps into *n: 1, or 0 when that is not a number of steps a
 * long can count (absurd durations or tiny timesteps). */
int cs_arg_steps(double duration, double timestep, long *n);

/* One line describing an error code, e.g. "is not a number". */
const char *cs_arg_error(int code);

#endif
