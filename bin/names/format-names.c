/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * format-names.c: what every formatter shares: the options that shape
 * lines (fmt) and the names of functions and of how calls end.  It calls
 * nothing of the formatters, so that they, the symbolizer and the stack
 * printer all stand on it without calling each other in a circle.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "catalog.h"
#include "demangle.h"
#include "format.h"
#include "session-check.h"

struct format_options fmt;
struct format_seen fmt_seen;

void format_seen_thread(void)
{
	fmt_seen.pid_prefix = true;
}

void format_seen_process(void)
{
	fmt_seen.processes = fmt_seen.pid_prefix = true;
}

const char *format_end_name(enum ltr_end why)
{
	static const char *const names[] = {
		[LTR_END_UNWOUND] = "unwound", [LTR_END_EXITED] = "exited",
		[LTR_END_PTHREAD_EXIT] = "pthread_exit",
		[LTR_END_KILLED] = "killed", [LTR_END_EXEC] = "exec",
	};

	if ((unsigned)why < sizeof(names) / sizeof(names[0]) && names[why])
		return names[why];
	return "ended";
}

const char *format_lib(uint32_t fn)
{
	const char *name = catalog_func_name(fn, true);

	return name ? name : "?";
}

const char *format_func_raw(uint32_t fn)
{
	const char *name = catalog_func_name(fn, false);

	return name ? name : "?";
}

const char *format_func(uint32_t fn)
{
	static char *demangled[LTR_MAX_FUNCS]; /* cache; "" = not a C++ name */
	const char *name = format_func_raw(fn);

	if (!fmt.demangle || fn >= LTR_MAX_FUNCS)
		return name;
	if (!demangled[fn]) {
		demangled[fn] = demangle(name);
		if (!demangled[fn])
			demangled[fn] = "";
	}
	return *demangled[fn] ? demangled[fn] : name;
}

const char *format_func_display(const char *raw)
{
	static char buf[1024];
	char *pretty;

	if (!fmt.demangle || !(pretty = demangle(raw)))
		return raw;
	snprintf(buf, sizeof(buf), "%s", pretty);
	free(pretty);
	return buf;
}
