/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A task record's attribute stream built by hand, as the module lays it
 * out: each attribute's header, its payload, zeroes to the 4-byte
 * boundary. The decoder's unit tests and the fuzz target's seed corpus
 * build their messages with it.
 */
#ifndef TD_TEST_MSG_H
#define TD_TEST_MSG_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netlink.h>

struct td_msg {
	uint8_t b[32768];
	size_t len;
};

/* Append attribute @type with @n bytes of @p (none: a flag, @p may be NULL). */
static inline void td_msg_put(struct td_msg *m, uint16_t type, const void *p, size_t n)
{
	struct nlattr nla = { .nla_len = (uint16_t)(NLA_HDRLEN + n), .nla_type = type };
	size_t total = NLA_ALIGN(NLA_HDRLEN + n);

	if (n > UINT16_MAX - NLA_HDRLEN || m->len + total > sizeof(m->b))
		abort();	/* a test that outgrew the buffer */
	memcpy(m->b + m->len, &nla, sizeof(nla));
	if (n)
		memcpy(m->b + m->len + NLA_HDRLEN, p, n);
	memset(m->b + m->len + NLA_HDRLEN + n, 0, total - NLA_HDRLEN - n);
	m->len += total;
}

static inline void td_msg_put_u32(struct td_msg *m, uint16_t type, uint32_t v)
{
	td_msg_put(m, type, &v, sizeof(v));
}

/* A string with its NUL, as nla_put_string() sends it. */
static inline void td_msg_put_str(struct td_msg *m, uint16_t type, const char *s)
{
	td_msg_put(m, type, s, strlen(s) + 1);
}

#endif /* TD_TEST_MSG_H */
