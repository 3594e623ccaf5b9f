/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefile-encode.c: tf_encode() for callers other than the writer's
 * per-event function (the unit test), from tracefile-encode.h.  Most
 * events of -w are encoded straight from the ring instead, as the
 * reader's plain records (tf_encode_plain()).
 */
#include "config.h"

#include "tracefile-encode.h"

size_t tf_encode(struct tf_codec *c, const struct ltr_event *ev,
		 unsigned char *out)
{
	return tf_encode_inline(c, ev, out);
}
