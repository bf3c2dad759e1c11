/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text the tools write: one growable buffer type, and one writer of
 * JSON strings and CSV fields (tdtext.c), shared by task_diag_all and tdps.
 */
#ifndef TDTEXT_H
#define TDTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A growable text buffer, always NUL-terminated once used. */
struct tdbuf {
	char *p;
	size_t len, cap;
};

/* The program's name, for the out-of-memory message (set by main()). */
extern const char *td_prog;

void td_nomem(void) __attribute__((noreturn));
void tdbuf_clear(struct tdbuf *b);
void tdbuf_add(struct tdbuf *b, const void *s, size_t n);
void tdbuf_addc(struct tdbuf *b, char c);
void tdbuf_puts(struct tdbuf *b, const char *s);
void tdbuf_addf(struct tdbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tdbuf_free(struct tdbuf *b);
/* @x into the ascending list *@v of *@n pids, unless it is there already. */
void td_pid_set_add(pid_t **v, size_t *n, pid_t x);
/*
 * The name of user (or, with @group, group) @id, or its decimal number
 * when it has none; cached: valid until td_id_cache_free().
 */
const char *td_id_label(uint32_t id, bool group);
void td_id_cache_free(void);
/* Decimal numbers and padding without printf (the tools' hottest calls). */
void tdbuf_addu(struct tdbuf *b, uint64_t v);
void tdbuf_addi(struct tdbuf *b, int64_t v);
/* @v right-aligned in @width columns (printf's %*u). */
void tdbuf_addu_w(struct tdbuf *b, uint64_t v, size_t width);
void tdbuf_add02(struct tdbuf *b, unsigned int v);	/* two digits, zero-padded */
void tdbuf_pad(struct tdbuf *b, char c, size_t n);

/*
 * The length of the UTF-8 sequence at @p (at most @n bytes), with *@ok set
 * when it is well-formed; when it is not, the length of its maximal
 * ill-formed subpart (at least 1), which stands for one U+FFFD.
 */
size_t td_utf8_next(const unsigned char *p, size_t n, bool *ok);

/* @s as a JSON string (RFC 8259), U+FFFD for ill-formed UTF-8. */
void td_json_str(struct tdbuf *b, const char *s, size_t n);
/* @s as a CSV field (RFC 4180), U+FFFD for ill-formed UTF-8. */
void td_csv_field(struct tdbuf *b, const char *s, size_t n);

#endif /* TDTEXT_H */
