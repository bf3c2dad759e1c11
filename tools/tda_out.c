// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag_all: the columns, the one print call and the dump.
 *
 * Output, as iproute2 does it: one column list, one print call per value
 * (out_field()) that yields a table cell, a CSV field or a JSON member, so
 * the three outputs cannot drift apart. The columns are either every item of
 * the groups asked for (-s), named and typed by libtaskdiag's item table, or
 * the fields of -o: ps's format specifiers (psfields.c, the values tdps
 * shows) and item names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tda.h"

/* ------------------------------------------------------------------------
 * Column lists
 */

static void add_column(struct out *o, const struct column *c)
{
	struct column *cols = realloc(o->cols, (o->ncols + 1) * sizeof(*o->cols));

	if (!cols)
		td_nomem();
	o->cols = cols;
	o->cols[o->ncols++] = *c;
}

static void upcase(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < len && src[i]; i++)
		dst[i] = (src[i] >= 'a' && src[i] <= 'z') ? (char)(src[i] - 'a' + 'A') : src[i];
	dst[i] = '\0';
}

static bool item_right(int item)
{
	const struct taskdiag_item_info *info = taskdiag_item_info(item);

	return (info->type == TASKDIAG_TYPE_U64 || info->type == TASKDIAG_TYPE_S64) &&
	       info->unit != TASKDIAG_UNIT_CHAR;
}

/* The column of item @i; in JSON a member of its group's object, if @nest. */
static void add_item_column(struct out *o, int i, bool nest)
{
	const struct taskdiag_item_info *info = taskdiag_item_info(i);
	struct column c = { .item = i };

	item_qname(i, c.key, sizeof(c.key));
	upcase(c.header, sizeof(c.header), info->name);
	if (nest) {
		/* JSON: the bare name inside the group's object. */
		snprintf(c.key, sizeof(c.key), "%s", info->name);
		c.nest = info->group_name;
	}
	c.right = item_right(i);
	add_column(o, &c);
}

/*
 * Every item of @groups, in the order of the item enum: JSON nests them by
 * group, CSV and the table say "group.name" (the table its upper-case
 * name). Items appended to the enum later (status.nstgid after
 * cmdline_len) join the object of their group in JSON, which is written
 * where the group's first item is, so no object appears twice.
 */
void columns_of_groups(struct out *o, uint32_t groups)
{
	bool done[TASKDIAG_ITEM__COUNT] = { false };
	int i, j;

	for (i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct taskdiag_item_info *info = taskdiag_item_info(i);
		bool nest = info->group && info->group != TASKDIAG_GROUP_CMDLINE &&
			    o->mode == OUT_JSON;

		if (done[i] || (info->group && !(info->group & groups)))
			continue;
		add_item_column(o, i, nest);
		if (!nest)
			continue;
		for (j = i + 1; j < TASKDIAG_ITEM__COUNT; j++)
			if (taskdiag_item_info(j)->group == info->group &&
			    !strcmp(taskdiag_item_info(j)->group_name, info->group_name)) {
				add_item_column(o, j, true);
				done[j] = true;
			}
	}
}

static void list_fields(void)
{
	static const char *const units[] = {
		[TASKDIAG_UNIT_COUNT] = "count", [TASKDIAG_UNIT_BYTES] = "bytes",
		[TASKDIAG_UNIT_NANOSECONDS] = "ns", [TASKDIAG_UNIT_PID] = "pid",
		[TASKDIAG_UNIT_ID] = "id", [TASKDIAG_UNIT_ADDRESS] = "address",
		[TASKDIAG_UNIT_MASK] = "mask", [TASKDIAG_UNIT_BITMAP] = "bitmap",
		[TASKDIAG_UNIT_CHAR] = "letter", [TASKDIAG_UNIT_TEXT] = "text",
		[TASKDIAG_UNIT_VALUE] = "value",
	};
	const struct psf_spec *sp;
	size_t i;
	int it;

	printf("ps format specifiers (shown as tdps and ps show them; NAME:WIDTH, NAME=HEADER):\n");
	for (i = 0; (sp = psf_spec_at(i)); i++)
		printf("  %-22s %s\n", sp->name, sp->header);
	printf("items (group.name, or name where unique; units of the ABI):\n");
	for (it = 0; it < TASKDIAG_ITEM__COUNT; it++) {
		const struct taskdiag_item_info *info = taskdiag_item_info(it);
		char q[64];

		item_qname(it, q, sizeof(q));
		printf("  %-30s %s\n", q, info->unit < sizeof(units) / sizeof(units[0]) &&
		       units[info->unit] ? units[info->unit] : "?");
	}
}

/* One field of -o: NAME[:WIDTH][=HEADER], a ps specifier or an item. */
static uint32_t one_field(struct out *o, char *tok)
{
	char *hdr = strchr(tok, '='), *colon, *end, bad[64];
	struct column c = { .item = -1 };
	const struct psf_spec *ps;
	unsigned long w;
	size_t i;
	int item;

	if (hdr)
		*hdr++ = '\0';
	snprintf(bad, sizeof(bad), "%s", tok);
	colon = strchr(tok, ':');
	if (colon) {
		*colon++ = '\0';
		errno = 0;
		w = strtoul(colon, &end, 10);
		if (*colon < '0' || *colon > '9' || *end || errno || !w || w > 1000)
			usage_error("-o: '%s': a width is a number from 1 to 1000", bad);
		c.width = w;
	}
	if (!*tok || strlen(tok) >= sizeof(c.key) || (hdr && strlen(hdr) >= sizeof(c.key)))
		usage_error("-o: unknown field '%s'", bad);
	snprintf(c.key, sizeof(c.key), "%s", hdr && *hdr ? hdr : tok);
	for (i = 0; i < o->ncols; i++)
		if (!strcmp(o->cols[i].key, c.key))
			usage_error("-o: field '%s' given twice", c.key);
	ps = psf_spec_find(tok);
	if (ps) {
		c.ps = ps;
		snprintf(c.header, sizeof(c.header), "%s", hdr ? hdr : ps->header);
		c.right = ps->right;
		add_column(o, &c);
		return ps->groups;
	}
	item = taskdiag_item_lookup(tok);
	if (item == -EEXIST)
		usage_error("-o: '%s' names several items: say group.%s", bad, bad);
	if (item < 0)
		usage_error("-o: unknown field '%s' (-o help lists them)", bad);
	c.item = item;
	if (hdr)
		snprintf(c.header, sizeof(c.header), "%s", hdr);
	else
		upcase(c.header, sizeof(c.header), tok);
	c.right = item_right(item);
	add_column(o, &c);
	return taskdiag_item_info(item)->group;
}

/* -o (or the default table): the columns; returns the groups they need. */
uint32_t columns_of_fields(struct out *o, const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;
	uint32_t groups = 0;

	if (!copy)
		td_nomem();
	for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		if (!strcmp(tok, "help")) {
			list_fields();
			exit(TDA_EXIT_OK);
		}
		groups |= one_field(o, tok);
	}
	free(copy);
	if (!o->ncols)
		usage_error("-o: no field given");
	return groups;
}

/* ------------------------------------------------------------------------
 * Output
 */

static void column_value(struct out *o, const struct column *c, const struct taskdiag_task *t,
			 struct tv *v)
{
	memset(v, 0, offsetof(struct tv, buf));
	if (c->ps) {
		struct psf_arg a = { .t = t, .cx = &o->cx, .item = c->ps->item };

		tdbuf_clear(&o->text);
		c->ps->fmt(&o->text, &a);
		v->kind = TV_PS;
		v->fmt = psf_spec_is_number(c->ps) ? FMT_NUMBER : FMT_DEC;
		v->p = o->text.p;
		v->len = o->text.len;
	} else {
		item_value(t, c->item, v);
	}
}

/* Before the first row: what the ps specifiers need, the table's widths. */
void out_begin(struct out *o)
{
	size_t i;

	o->cx.raw = o->mode != OUT_TABLE;
	o->width = calloc(o->ncols ? o->ncols : 1, sizeof(*o->width));
	if (!o->width)
		td_nomem();
	for (i = 0; i < o->ncols; i++)
		o->width[i] = o->cols[i].width;
}

void out_free(struct out *o)
{
	free(o->cols);
	free(o->width);
	tdbuf_free(&o->cells);
	tdbuf_free(&o->line);
	tdbuf_free(&o->text);
	psf_cleanup();
}

static void out_row_begin(struct out *o)
{
	o->col = 0;
	tdbuf_clear(&o->line);
	if (o->mode == OUT_JSON) {
		tdbuf_addc(&o->line, '{');
		o->first = true;
		o->nest = NULL;
	}
}

static size_t cell_width(const struct out *o, const char *s, size_t n)
{
	return psf_text_width(s, n, o->cx.utf8);
}

/* A table cell: kept until the end, when the column widths are known. */
static void table_cell(struct out *o, const char *s, size_t len)
{
	size_t w;

	tdbuf_add(&o->cells, s, len);
	tdbuf_addc(&o->cells, '\0');
	w = cell_width(o, s, len);
	if (w > o->width[o->col])
		o->width[o->col] = w;
}

static void json_member(struct out *o, const struct column *c)
{
	if (o->nest != c->nest && (!o->nest || !c->nest || strcmp(o->nest, c->nest))) {
		if (o->nest)
			tdbuf_addc(&o->line, '}');
		o->nest = NULL;
		if (c->nest) {
			if (!o->first)
				tdbuf_addc(&o->line, ',');
			td_json_str(&o->line, c->nest, strlen(c->nest));
			tdbuf_puts(&o->line, ":{");
			o->first = false;
			o->nest = c->nest;
			o->nest_first = true;
		}
	}
	if (o->nest ? !o->nest_first : !o->first)
		tdbuf_addc(&o->line, ',');
	if (o->nest)
		o->nest_first = false;
	else
		o->first = false;
	td_json_str(&o->line, c->key, strlen(c->key));
	tdbuf_addc(&o->line, ':');
}

/*
 * out_field() - the one print call: @v of column @c as a table cell, a CSV
 * field or a JSON member (left out when absent; members of a group go in
 * the group's object, opened at its first member).
 */
static void out_field(struct out *o, const struct column *c, const struct tv *v)
{
	static struct tdbuf text;

	tdbuf_clear(&text);
	switch (o->mode) {
	case OUT_QUIET:
	case OUT_OPENMETRICS:
		break;
	case OUT_TABLE:
		tv_text(&text, v, true);
		table_cell(o, text.p, text.len);
		break;
	case OUT_CSV:
		if (o->col)
			tdbuf_addc(&o->line, ',');
		tv_text(&text, v, false);
		td_csv_field(&o->line, text.p, text.len);
		break;
	case OUT_JSON:
		if (!tv_json(&text, v))
			break;
		json_member(o, c);
		tdbuf_add(&o->line, text.p, text.len);
		break;
	}
	o->col++;
}

static void out_row_end(struct out *o)
{
	switch (o->mode) {
	case OUT_JSON:
		if (o->nest)
			tdbuf_addc(&o->line, '}');
		tdbuf_puts(&o->line, "}\n");
		fwrite(o->line.p, 1, o->line.len, stdout);
		break;
	case OUT_CSV:
		tdbuf_puts(&o->line, o->crlf ? "\r\n" : "\n");
		fwrite(o->line.p, 1, o->line.len, stdout);
		break;
	default:
		break;
	}
}

static void out_header(struct out *o)
{
	size_t i;

	if (o->header_done)
		return;
	o->header_done = true;
	if (o->mode == OUT_TABLE) {
		o->col = 0;
		for (i = 0; i < o->ncols; i++, o->col++)
			table_cell(o, o->cols[i].header, strlen(o->cols[i].header));
	} else if (o->mode == OUT_CSV) {
		tdbuf_clear(&o->line);
		for (i = 0; i < o->ncols; i++) {
			if (i)
				tdbuf_addc(&o->line, ',');
			td_csv_field(&o->line, o->cols[i].key, strlen(o->cols[i].key));
		}
		tdbuf_puts(&o->line, o->crlf ? "\r\n" : "\n");
		fwrite(o->line.p, 1, o->line.len, stdout);
	}
}

static void out_task(struct out *o, const struct taskdiag_task *t)
{
	struct tv v;
	size_t i;

	if (o->sink) {
		o->sink(o->sink_arg, t);
		return;
	}
	if (o->mode == OUT_QUIET) {
		for (i = 0; i < o->ncols; i++)
			column_value(o, &o->cols[i], t, &v);
		return;
	}
	out_header(o);
	o->rows++;
	out_row_begin(o);
	for (i = 0; i < o->ncols; i++) {
		column_value(o, &o->cols[i], t, &v);
		out_field(o, &o->cols[i], &v);
	}
	out_row_end(o);
}

/*
 * The table, aligned: numbers to the right, text to the left, one space
 * apart; a last text column is cut where the screen ends (a terminal's
 * width, or COLUMNS), as ps cuts its command column.
 */
static void out_flush_table(struct out *o)
{
	const char *p = o->cells.p, *end = p + o->cells.len;
	size_t i, pos, len, w, n;

	if (o->mode != OUT_TABLE || !p)
		return;
	while (p < end) {
		pos = 0;
		for (i = 0; i < o->ncols; i++) {
			bool last = i + 1 == o->ncols;

			len = strlen(p);
			n = len;
			w = cell_width(o, p, len);
			if (last && !o->cols[i].right && o->screen != SIZE_MAX) {
				size_t room = o->screen > pos ? o->screen - pos : 0;

				n = psf_text_cut(p, len, room, o->cx.utf8);
				w = cell_width(o, p, n);
			}
			if (o->cols[i].right)
				printf("%*s", (int)(o->width[i] - w), "");
			fwrite(p, 1, n, stdout);
			if (!o->cols[i].right && !last)
				printf("%*s", (int)(o->width[i] - w), "");
			fputs(last ? "\n" : " ", stdout);
			pos += o->width[i] + 1;
			p += len + 1;
		}
	}
}

/* ------------------------------------------------------------------------
 * Dump
 */

static const char *scope_what(const struct taskdiag_request *req, char *buf, size_t len)
{
	switch (req->scope) {
	case TASKDIAG_SCOPE_TASK:
		snprintf(buf, len, "pid %d", (int)req->pid);
		break;
	case TASKDIAG_SCOPE_THREADS:
		snprintf(buf, len, "threads of pid %d", (int)req->pid);
		break;
	case TASKDIAG_SCOPE_CHILDREN:
		snprintf(buf, len, "children of pid %d", (int)req->pid);
		break;
	case TASKDIAG_SCOPE_ALL_THREADS:
		snprintf(buf, len, "all threads");
		break;
	default:
		snprintf(buf, len, "all processes");
		break;
	}
	return buf;
}

static int dump_one(struct out *o, struct taskdiag *td, const struct taskdiag_request *req,
		    const char *replay)
{
	const struct taskdiag_task *t;
	struct taskdiag_iter *it;
	char what[64];
	int ret;

	ret = taskdiag_iter_start(td, req, &it);
	if (!ret) {
		while ((ret = taskdiag_iter_next(it, &t)) == 1)
			out_task(o, t);
		taskdiag_iter_end(it);
	}
	if (ret >= 0)
		return 0;
	if (replay)
		return report(ret, td, "%s (replay of %s)", scope_what(req, what, sizeof(what)),
			      replay);
	return report(ret, td, "%s", scope_what(req, what, sizeof(what)));
}

/*
 * Several pids (-p LIST): one request each, in the order given (sorted and
 * without repeats by the option parser); a pid that is gone is reported and
 * the others are still shown, the exit status that of the last error.
 */
int run_dump(struct out *o, struct taskdiag *td, const struct taskdiag_request *req,
	     const pid_t *pids, size_t npids, const char *replay)
{
	struct taskdiag_request one = *req;
	int ret = 0, err;
	size_t i;

	if (npids <= 1) {
		ret = dump_one(o, td, req, replay);
	} else {
		for (i = 0; i < npids; i++) {
			one.pid = pids[i];
			err = dump_one(o, td, &one, replay);
			if (err)
				ret = err;
		}
	}
	/* A header for an empty result, none before an error alone. */
	if (!ret || o->rows)
		out_header(o);
	out_flush_table(o);
	return ret;
}
