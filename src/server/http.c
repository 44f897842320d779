/*
 * http.c: the page over HTTP: the files of web/ embedded at build time
 * (gzip'd and with an ETag where that helps), and the answers of /api/...
 * (players.c makes them). The connection's Session holds what is being sent.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

static const Asset *find_asset(const char *uri) {
    /* The page's own addresses: games, TAKAT games, players, the leaderboard, the analysis board. */
    if (strcmp(uri, "/") == 0 || strncmp(uri, "/g/", 3) == 0 || strncmp(uri, "/t/", 3) == 0 ||
        strncmp(uri, "/p/", 3) == 0 || strcmp(uri, "/players") == 0 || strcmp(uri, "/analysis") == 0)
        uri = "/index.html";
    for (unsigned i = 0; i < web_asset_count; i++)
        if (strcmp(uri + 1, web_assets[i].path) == 0) return &web_assets[i];
    return NULL;
}

/* A request header's value into buf (cut to "" when absent or longer than
 * buf: then it is as if not sent). */
static const char *header(struct lws *wsi, enum lws_token_indexes h, char *buf, int size) {
    if (lws_hdr_total_length(wsi, h) >= size || lws_hdr_copy(wsi, buf, size, h) < 0) buf[0] = '\0';
    return buf;
}

static const char *skip_space(const char *v) {
    while (*v == ' ' || *v == '\t') v++;
    return v;
}

/* Whether an Accept-Encoding value takes gzip: a "gzip" (or "x-gzip") coding
 * whose q is not 0, or else a "*" whose q is not 0. */
static bool accepts_gzip(const char *v) {
    double gzip_q = -1, any_q = -1;
    while (*v) {
        v = skip_space(v);
        const char *name = v;
        while (*v && *v != ',' && *v != ';' && *v != ' ' && *v != '\t') v++;
        size_t n = (size_t)(v - name);
        double q = 1;
        while (*v && *v != ',') {
            v = skip_space(*v == ';' ? v + 1 : v);
            if ((*v == 'q' || *v == 'Q') && *skip_space(v + 1) == '=') q = strtod(skip_space(v + 1) + 1, NULL);
            while (*v && *v != ',' && *v != ';') v++;
        }
        if ((n == 4 && strncasecmp(name, "gzip", 4) == 0) || (n == 6 && strncasecmp(name, "x-gzip", 6) == 0))
            gzip_q = q;
        else if (n == 1 && *name == '*')
            any_q = q;
        if (*v == ',') v++;
    }
    return gzip_q >= 0 ? gzip_q > 0 : any_q > 0;
}

/* Whether an If-None-Match value names this entity tag ("*", or one of its
 * comma-separated tags, weak ones too: the comparison is the weak one). */
static bool etag_matches(const char *v, const char *etag) {
    size_t len = strlen(etag);
    if (strcmp(skip_space(v), "*") == 0) return true;
    while (*v) {
        v = skip_space(v);
        if (strncmp(v, "W/", 2) == 0) v += 2;
        if (strncmp(v, etag, len) == 0 && (*skip_space(v + len) == ',' || *skip_space(v + len) == '\0'))
            return true;
        while (*v && *v != ',') v++;
        if (*v == ',') v++;
    }
    return false;
}

static int add_header(struct lws *wsi, const char *name, const char *value, unsigned char **p,
                      unsigned char *end) {
    return lws_add_http_header_by_name(wsi, (const unsigned char *)name, (const unsigned char *)value,
                                       (int)strlen(value), p, end);
}

/* Body bytes sent so far live in ss->rx_len (unused by HTTP connections).
 * An API answer (/api/...) is made now, into ss->body, and sent as an asset
 * of its own. A file of the page is sent gzip'd to a client that takes
 * gzip, and with the ETag of the bytes sent: every answer says no-cache, so a browser asks
 * again each time, and a copy it holds is answered 304, with no body. */
int http_start(struct lws *wsi, Session *ss, const char *uri) {
    int status = HTTP_STATUS_OK;
    free(ss->body);
    ss->body = NULL;
    if (strncmp(uri, "/api/", 5) == 0) {
        const char *mime;
        ss->body = players_http(ss->server, uri, &status, &mime);
        if (ss->body == NULL) {
            lws_return_http_status(wsi, HTTP_STATUS_INTERNAL_SERVER_ERROR, "out of memory");
            return lws_http_transaction_completed(wsi) ? -1 : 0;
        }
        ss->body_asset = (Asset){.path = "", .mime = mime, .data = (const unsigned char *)ss->body,
                                 .len = (unsigned)strlen(ss->body)};
        ss->asset = &ss->body_asset;
    } else {
        ss->asset = find_asset(uri);
    }
    if (ss->asset == NULL) {
        /* An address the page does not know: its 404 page (web/404.html),
         * sent plain and without an ETag, so it is never answered 304. */
        const Asset *page = find_asset("/404.html");
        if (page == NULL) {
            lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, "not found");
            return lws_http_transaction_completed(wsi) ? -1 : 0;
        }
        status = HTTP_STATUS_NOT_FOUND;
        ss->body_asset = (Asset){.path = "", .mime = page->mime, .data = page->data, .len = page->len};
        ss->asset = &ss->body_asset;
    }
    const Asset *a = ss->asset;
    char value[1024];
    ss->gzip = a->gz && accepts_gzip(header(wsi, WSI_TOKEN_HTTP_ACCEPT_ENCODING, value, sizeof value));
    const char *etag = ss->gzip ? a->gz_etag : a->etag;
    bool unchanged = etag && etag_matches(header(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH, value, sizeof value), etag);
    unsigned char buf[LWS_PRE + 1024], *start = buf + LWS_PRE, *p = start,
                                       *end = buf + sizeof buf - 1;
    if (unchanged ? lws_add_http_header_status(wsi, HTTP_STATUS_NOT_MODIFIED, &p, end)
                  : lws_add_http_common_headers(wsi, (unsigned)status, a->mime, ss->gzip ? a->gz_len : a->len,
                                                &p, end))
        return -1;
    if (add_header(wsi, "cache-control:", "no-cache", &p, end) ||
        (!unchanged && add_header(wsi, "x-content-type-options:", "nosniff", &p, end)) ||
        (etag && add_header(wsi, "etag:", etag, &p, end)) ||
        (a->gz && add_header(wsi, "vary:", "Accept-Encoding", &p, end)) ||
        (ss->gzip && !unchanged && add_header(wsi, "content-encoding:", "gzip", &p, end)) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    if (unchanged) {
        ss->asset = NULL;
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    }
    ss->rx_len = 0;
    lws_callback_on_writable(wsi);
    return 0;
}

int http_write(struct lws *wsi, Session *ss) {
    if (ss->asset == NULL) return 0;
    const unsigned char *data = ss->gzip ? ss->asset->gz : ss->asset->data;
    unsigned char buf[LWS_PRE + 16384];
    size_t left = (ss->gzip ? ss->asset->gz_len : ss->asset->len) - ss->rx_len, n = left < 16384 ? left : 16384;
    memcpy(buf + LWS_PRE, data + ss->rx_len, n);
    bool last = n == left;
    if (lws_write(wsi, buf + LWS_PRE, n, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) != (int)n)
        return -1;
    ss->rx_len += n;
    if (!last) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    ss->asset = NULL;
    free(ss->body);
    ss->body = NULL;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

void http_closed(Session *ss) {
    free(ss->body);
    ss->body = NULL;
    ss->asset = NULL;
}
