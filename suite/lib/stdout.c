// SPDX-License-Identifier: GPL-2.0
/* Every program's stdout, line-buffered from the start. */
#include <stdio.h>

/*
 * Every program writes its TAP, and the harness its TH_LOG lines
 * (-DTH_LOG_STREAM=stdout, suite/Makefile), to stdout.  The harness logs
 * from the forked test process, which ends with _exit(): a line still in
 * a full buffer then would be lost, or come out twice after a fork.
 * Line-buffered, each line is out when it ends, in order.
 */
__attribute__((constructor)) static void stdout_line_buffered(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}
