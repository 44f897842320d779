# Makefile: the Tak library (build/libtak.a), the `tak` command (build/tak),
# the cmocka tests, a sanitizer build of both, and the libFuzzer targets.
#
# Sources are found by wildcard, so a new file or a new library module
# (src/<module>/*.c) needs no edit here; only directories that hold programs
# rather than library code are named, in FRONTENDS. Each build variant has its
# own object tree under build/, with dependency files from -MMD.
#
#   make          build/libtak.a and build/tak
#   make test     every tests/test_*.c (cmocka) and tests/cli/*.sh; summary line
#   make asan     the same suite built with ASan/UBSan into build/asan/
#   make tsan     a two-thread search built with ThreadSanitizer (build/tsan/)
#   make fuzz     every fuzz/fuzz_*.c with clang and libFuzzer into build/fuzz/
#   make bench    build/tak bench, then the engine's (bench/engine.c)
#   make tune     the evaluation tuner and the tactics generator (tools/)
#   make shared   build/libtak.so (position-independent objects in build/pic/)
#   make install  the libraries, headers, tak.pc, the command and its man page
#                 under $(DESTDIR)$(PREFIX) (PREFIX=/usr/local); make uninstall
#   make docs     the API reference from the headers (Doxygen) in build/docs/
#   make npm      the JavaScript package, build/npm/tak-engine-VERSION.tgz
#   make test-install, test-python, test-npm   each package as a user gets it

ifeq ($(origin CC),default)
CC := gcc
endif
# libFuzzer comes with clang only; Debian installs it as clang or clang-<major>.
ifeq ($(origin CLANG),undefined)
CLANG := $(shell command -v clang 2>/dev/null || command -v clang-14 2>/dev/null)
endif

BUILD := build
WARN := -Wall -Wextra -Werror
CPPFLAGS := -Iinclude -MMD -MP
CFLAGS := -std=c11 -O3 -march=native -pthread $(WARN)
ASAN_FLAGS := -O1 -g -pthread -fsanitize=address,undefined -fno-sanitize-recover=all \
    -fno-omit-frame-pointer
FUZZ_FLAGS := -g -O1 -pthread -fno-sanitize-recover=undefined
# The engine and protocol run searches in threads; match statistics use libm.
LDLIBS := -lm -pthread

CMOCKA_CFLAGS := $(shell pkg-config --cflags cmocka 2>/dev/null)
CMOCKA_LIBS := $(or $(shell pkg-config --libs cmocka 2>/dev/null),-lcmocka)

# Directories of src/ that hold programs, not library code (wasm: the
# WebAssembly build's exported functions).
FRONTENDS := cli server wasm
LIB_SRCS := $(filter-out $(patsubst %,src/%/%,$(FRONTENDS)),$(wildcard src/*/*.c))
CLI_SRCS := $(wildcard src/cli/*.c)
SUPPORT_SRCS := $(wildcard tests/support/*.c)
TEST_SRCS := $(wildcard tests/test_*.c)
TEST_NAMES := $(basename $(notdir $(TEST_SRCS)))
FUZZ_SRCS := $(wildcard fuzz/fuzz_*.c)
FUZZ_NAMES := $(basename $(notdir $(FUZZ_SRCS)))

# Tests read the shared data (spec, games) from $TAK_SHARED, else ../shared.
TAK_SHARED ?= $(abspath $(CURDIR)/../shared)
export TAK_SHARED

.PHONY: all test asan tsan fuzz bench tune clean shared install uninstall docs
# Keep the objects of chained rules (tests, fuzz targets) between runs.
.SECONDARY:
all: $(BUILD)/libtak.a $(BUILD)/tak

# ---- objects, one tree per variant --------------------------------------

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/asan/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -std=c11 $(WARN) $(ASAN_FLAGS) -c $< -o $@

# Test sources also see cmocka's headers and the shared test helpers.
$(BUILD)/obj/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests/support $(CMOCKA_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/asan/obj/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests/support $(CMOCKA_CFLAGS) -std=c11 $(WARN) $(ASAN_FLAGS) -c $< -o $@

# The library is instrumented for coverage only; the fuzzer's main() is linked
# into each target.
$(BUILD)/fuzz/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CLANG) $(CPPFLAGS) -std=c11 $(WARN) $(FUZZ_FLAGS) \
	    -fsanitize=fuzzer-no-link,address,undefined -c $< -o $@

# ---- optimised build ----------------------------------------------------

LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)
SUPPORT_OBJS := $(SUPPORT_SRCS:%.c=$(BUILD)/obj/%.o)
TEST_BINS := $(TEST_NAMES:%=$(BUILD)/tests/%)

$(BUILD)/libtak.a: $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/tak: $(CLI_OBJS) $(BUILD)/libtak.a
	$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(SUPPORT_OBJS) $(BUILD)/libtak.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $^ $(CMOCKA_LIBS) $(LDLIBS) -o $@

# A test that does not compile must not stop the others: build with -k, and
# the runner counts each program that is not up to date as a failure.
test:
	@$(MAKE) --no-print-directory -k $(TEST_BINS) $(BUILD)/tak $(BUILD)/tools/tune/tune || true
	@MAKE="$(MAKE)" scripts/run-tests.sh $(BUILD)/tests $(BUILD)/tak

bench: $(BUILD)/tak $(BUILD)/bench/engine
	$(BUILD)/tak bench
	$(BUILD)/bench/engine

# Programs of bench/ and tools/, one source each, linked with the library.
$(BUILD)/bench/engine: $(BUILD)/obj/bench/engine.o $(BUILD)/libtak.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/tools/%: $(BUILD)/obj/tools/%.o $(BUILD)/libtak.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

tune: $(BUILD)/tools/tune/tune $(BUILD)/tools/tactics/gen

# ---- the shared library, install, docs ------------------------------------
# The version is written once, in include/tak/version.h.

version_part = $(shell sed -n 's/^\#define TAK_VERSION_$(1) \([0-9]*\).*/\1/p' include/tak/version.h)
VERSION_MAJOR := $(call version_part,MAJOR)
VERSION := $(VERSION_MAJOR).$(call version_part,MINOR).$(call version_part,PATCH)
SONAME := libtak.so.$(VERSION_MAJOR)

# The same library compiled position-independent, in its own tree so that the
# static build (and the bench signature) keep their flags. Only the public
# names are exported (src/libtak.map). It is the library that is installed and
# put in the Python package, so it is built for any x86-64 (or whatever the
# compiler targets by default), not -march=native: a package made on one
# machine must run on another. PIC_ARCH=-march=native for a local build.
PIC_ARCH ?=
PIC_CFLAGS := -std=c11 -O3 $(PIC_ARCH) -pthread $(WARN)
PIC_LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/pic/obj/%.o)

$(BUILD)/pic/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(PIC_CFLAGS) -fPIC -c $< -o $@

$(BUILD)/libtak.so.$(VERSION): $(PIC_LIB_OBJS) src/libtak.map
	$(CC) $(PIC_CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=src/libtak.map \
	    -Wl,--no-undefined $(PIC_LIB_OBJS) $(LDLIBS) -o $@

$(BUILD)/libtak.so: $(BUILD)/libtak.so.$(VERSION)
	ln -sf libtak.so.$(VERSION) $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $@

shared: $(BUILD)/libtak.so

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

# Generated for each install, since it names the prefix.
$(BUILD)/tak.pc: FORCE
	@mkdir -p $(@D)
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' \
	    'Name: tak' 'Description: Tak: positions, moves, PTN and TPS, perft, and the engine' \
	    'Version: $(VERSION)' 'Libs: -L$${libdir} -ltak' 'Libs.private: -lm -pthread' \
	    'Cflags: -I$${includedir}' > $@

$(BUILD)/tak.1: man/tak.1 include/tak/version.h
	@mkdir -p $(@D)
	sed 's/@VERSION@/$(VERSION)/' man/tak.1 > $@

.PHONY: FORCE
FORCE:

install: $(BUILD)/libtak.so $(BUILD)/libtak.a $(BUILD)/tak $(BUILD)/tak.pc $(BUILD)/tak.1
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/tak \
	    $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(PKGCONFIGDIR)
	install -m 644 include/tak/*.h $(DESTDIR)$(INCLUDEDIR)/tak/
	install -m 755 $(BUILD)/libtak.so.$(VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libtak.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libtak.so
	install -m 644 $(BUILD)/libtak.a $(DESTDIR)$(LIBDIR)/
	install -m 644 $(BUILD)/tak.pc $(DESTDIR)$(PKGCONFIGDIR)/
	install -m 755 $(BUILD)/tak $(DESTDIR)$(BINDIR)/
	install -m 644 $(BUILD)/tak.1 $(DESTDIR)$(MANDIR)/man1/

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libtak.so $(DESTDIR)$(LIBDIR)/$(SONAME) \
	    $(DESTDIR)$(LIBDIR)/libtak.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libtak.a \
	    $(DESTDIR)$(PKGCONFIGDIR)/tak.pc $(DESTDIR)$(BINDIR)/tak $(DESTDIR)$(MANDIR)/man1/tak.1
	rm -f $(patsubst include/tak/%,$(DESTDIR)$(INCLUDEDIR)/tak/%,$(wildcard include/tak/*.h))
	-rmdir $(DESTDIR)$(INCLUDEDIR)/tak

# The installed library as a user gets it: install into a temporary prefix,
# the examples built through pkg-config and run, the exported symbols checked.
.PHONY: test-install
test-install:
	MAKE="$(MAKE)" tests/lib/install.sh

# The Python package (python/): pip install into a new virtual environment
# with no package index, its pytest suite, the README's script.
.PHONY: test-python
test-python:
	MAKE="$(MAKE)" tests/lib/python.sh

# The JavaScript package (npm/): build/npm/tak-engine-VERSION.tgz; its test
# installs the tarball into an empty folder and uses it from Node, a bundler,
# chromium and TypeScript.
.PHONY: npm test-npm
npm: $(BUILD)/wasm/tak.wasm
	bash npm/pack.sh

test-npm:
	MAKE="$(MAKE)" tests/lib/npm.sh

# The API reference, from the headers' comments; any Doxygen warning fails.
docs: docs/Doxyfile $(wildcard include/tak/*.h)
	@mkdir -p $(BUILD)/docs
	(cat docs/Doxyfile; echo 'PROJECT_NUMBER = $(VERSION)') | doxygen -

# ---- sanitizer build ----------------------------------------------------

ASAN_LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/asan/obj/%.o)
ASAN_CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/asan/obj/%.o)
ASAN_SUPPORT_OBJS := $(SUPPORT_SRCS:%.c=$(BUILD)/asan/obj/%.o)
ASAN_TEST_BINS := $(TEST_NAMES:%=$(BUILD)/asan/tests/%)

$(BUILD)/asan/libtak.a: $(ASAN_LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/asan/tak: $(ASAN_CLI_OBJS) $(BUILD)/asan/libtak.a
	$(CC) $(ASAN_FLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/asan/tests/%: $(BUILD)/asan/obj/tests/%.o $(ASAN_SUPPORT_OBJS) $(BUILD)/asan/libtak.a
	@mkdir -p $(@D)
	$(CC) $(ASAN_FLAGS) $^ $(CMOCKA_LIBS) $(LDLIBS) -o $@

# Leak checking is on (the default on Linux); a UBSan report aborts the test.
asan:
	@$(MAKE) --no-print-directory -k $(ASAN_TEST_BINS) $(BUILD)/asan/tak $(BUILD)/tools/tune/tune || true
	@MAKE="$(MAKE)" ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    scripts/run-tests.sh $(BUILD)/asan/tests $(BUILD)/asan/tak

# ---- ThreadSanitizer: the search on two threads ---------------------------
# The engine's benchmark at --quick with two search threads (Lazy SMP: one
# table, written by both), built with -fsanitize=thread; any data race it
# reports fails the run.

TSAN_FLAGS := -O1 -g -pthread -fsanitize=thread
TSAN_LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/tsan/obj/%.o)

$(BUILD)/tsan/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -std=c11 $(WARN) $(TSAN_FLAGS) -c $< -o $@

$(BUILD)/tsan/libtak.a: $(TSAN_LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/tsan/bench/engine: $(BUILD)/tsan/obj/bench/engine.o $(BUILD)/tsan/libtak.a
	@mkdir -p $(@D)
	$(CC) $(TSAN_FLAGS) $^ $(LDLIBS) -o $@

tsan: $(BUILD)/tsan/bench/engine
	TSAN_OPTIONS=halt_on_error=1:exitcode=66 $(BUILD)/tsan/bench/engine --threads 2 --quick --search-only

# ---- fuzz targets -------------------------------------------------------

FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/fuzz/obj/%.o)
FUZZ_BINS := $(FUZZ_NAMES:%=$(BUILD)/fuzz/%)

$(BUILD)/fuzz/libtak.a: $(FUZZ_LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/fuzz/fuzz_%: fuzz/fuzz_%.c $(BUILD)/fuzz/libtak.a
	@mkdir -p $(@D)
	$(CLANG) $(CPPFLAGS) -MF $@.d -std=c11 $(WARN) $(FUZZ_FLAGS) \
	    -fsanitize=fuzzer,address,undefined $< $(BUILD)/fuzz/libtak.a $(LDLIBS) -o $@

fuzz: check-clang $(FUZZ_BINS)

.PHONY: check-clang
check-clang:
	@test -n "$(CLANG)" || { echo "make fuzz needs clang (run scripts/setup.sh)" >&2; exit 1; }

clean:
	rm -rf $(BUILD)

# ---- tak serve: the web server (src/server/) and its page (web/) ----------
# Only build/tak links libwebsockets, jansson, SQLite, libpq and OpenSSL's libcrypto
# (SHA-256 of players' secrets); the library and its
# tests stay free of them, but for test_store, which links the stores (below). The page is embedded as generated C, so the binary
# needs nothing beside it. libtak.a is named again after the server's objects,
# which use it.

SERVER_LIBS := $(or $(shell pkg-config --libs libwebsockets jansson sqlite3 libpq libcrypto 2>/dev/null),\
    -lwebsockets -ljansson -lsqlite3 -lpq -lcrypto) -lev
# libpq's header lives in its own directory (/usr/include/postgresql on Debian).
PQ_CFLAGS := $(or $(shell pkg-config --cflags libpq 2>/dev/null),-I/usr/include/postgresql)
$(BUILD)/obj/src/server/%.o $(BUILD)/asan/obj/src/server/%.o: CPPFLAGS += $(PQ_CFLAGS)
SERVER_SRCS := $(wildcard src/server/*.c)
# The page's ES modules (web/*.js but the service worker and the engine's two
# files, which engine.js fetches as text for its worker) are served as one
# minified bundle, /app.js, made by esbuild from web/app.js and its imports
# (and /404.js from web/404.js for the page of unknown addresses): one request
# and one gzip stream instead of sixteen (bench/WEB.md). /app.js.map, with the
# sources in it, is fetched only by a browser's developer tools.
WEB_UNBUNDLED := web/sw.js web/tak-engine.js web/tak-worker.js
WEB_MODULES := $(filter-out $(WEB_UNBUNDLED),$(wildcard web/*.js))
WEB_BUNDLES := $(BUILD)/gen/web/app.js $(BUILD)/gen/web/404.js
WEB_FILES := $(wildcard web/*.html web/*.css web/*.svg web/*.webmanifest) $(WEB_UNBUNDLED) \
    $(WEB_BUNDLES) $(BUILD)/gen/web/app.js.map $(BUILD)/wasm/tak.wasm
SERVER_OBJS := $(SERVER_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/web_assets.o
ASAN_SERVER_OBJS := $(SERVER_SRCS:%.c=$(BUILD)/asan/obj/%.o) $(BUILD)/asan/obj/gen/web_assets.o

ESBUILD ?= esbuild
ESBUILD_FLAGS := --bundle --format=esm --minify --log-level=warning
$(BUILD)/gen/web/app.js: $(WEB_MODULES)
	@command -v $(ESBUILD) >/dev/null || { echo "error: esbuild not found: the page's modules are bundled by it (scripts/setup.sh installs Debian's esbuild)" >&2; exit 1; }
	@mkdir -p $(@D)
	$(ESBUILD) web/app.js $(ESBUILD_FLAGS) --sourcemap=linked --outfile=$@
	@# The map's sources as web/NAME, not ../../../web/NAME.
	sed -i 's|"\(\.\./\)*web/|"web/|g' $@.map
$(BUILD)/gen/web/app.js.map: $(BUILD)/gen/web/app.js
$(BUILD)/gen/web/404.js: $(WEB_MODULES)
	@command -v $(ESBUILD) >/dev/null || { echo "error: esbuild not found: the page's modules are bundled by it (scripts/setup.sh installs Debian's esbuild)" >&2; exit 1; }
	@mkdir -p $(@D)
	$(ESBUILD) web/404.js $(ESBUILD_FLAGS) --outfile=$@

$(BUILD)/gen/web_assets.c: $(WEB_FILES) scripts/embed-web.sh
	@mkdir -p $(@D)
	scripts/embed-web.sh $@ $(WEB_FILES)

# The library in the page: src/core, src/notation and src/engine (the same
# sources, one thread) with src/wasm's exported functions, as WebAssembly
# for web/tak-engine.js. Debian's clang, wasi-libc and compiler-rt builtins.
WASM_CC := $(CLANG) --target=wasm32-wasi --sysroot=/usr -isystem /usr/include/wasm32-wasi
WASM_SRCS := $(wildcard src/core/*.c src/notation/*.c src/engine/*.c src/wasm/*.c)
WASM_OBJS := $(WASM_SRCS:%.c=$(BUILD)/wasm/obj/%.o)
# The evaluation networks the page's engine carries, a bit a size: 5x5 and
# 6x6, where players analyse most; each network is some 40-70 KB on the wire,
# and the first visit must stay within 300 KB (bench/WEB.md). The other
# sizes are evaluated by the linear terms in the page.
WASM_NET_SIZES := 0x60
# The networks chosen, kept in a file rewritten (as make reads this file)
# only when they change, so `make WASM_NET_SIZES=...` compiles the page's
# objects again; a plain file, so `make -q` still finds a built tree up to date.
WASM_NETS_CHOSEN := $(BUILD)/wasm/net-sizes
$(shell mkdir -p $(BUILD)/wasm && { [ "$$(cat $(WASM_NETS_CHOSEN) 2>/dev/null)" = '$(WASM_NET_SIZES)' ] || echo '$(WASM_NET_SIZES)' >$(WASM_NETS_CHOSEN); })

$(BUILD)/wasm/obj/%.o: %.c $(WASM_NETS_CHOSEN)
	@mkdir -p $(@D)
	$(WASM_CC) $(CPPFLAGS) -DNET_SIZES=$(WASM_NET_SIZES) -std=c11 -O2 $(WARN) -c $< -o $@

$(BUILD)/wasm/tak.wasm: $(WASM_OBJS)
	$(WASM_CC) -L/usr/lib/wasm32-wasi -mexec-model=reactor -O2 $^ -o $@ -Wl,--strip-all

$(BUILD)/obj/gen/web_assets.o: $(BUILD)/gen/web_assets.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/asan/obj/gen/web_assets.o: $(BUILD)/gen/web_assets.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -std=c11 $(WARN) $(ASAN_FLAGS) -c $< -o $@

$(BUILD)/tak: $(SERVER_OBJS)
$(BUILD)/tak: LDLIBS += $(BUILD)/libtak.a $(SERVER_LIBS)
$(BUILD)/asan/tak: $(ASAN_SERVER_OBJS)
$(BUILD)/asan/tak: LDLIBS += $(BUILD)/asan/libtak.a $(SERVER_LIBS)

# tests/test_store.c checks the stores themselves (src/server/store*.c), so it
# links them and their databases' client libraries; `make test` runs it on
# SQLite, test-server on PostgreSQL too (TAK_TEST_PG, from with-postgres.sh).
STORE_SRCS := $(wildcard src/server/store*.c)
STORE_LIBS := $(or $(shell pkg-config --libs sqlite3 libpq 2>/dev/null),-lsqlite3 -lpq)
$(BUILD)/obj/tests/test_store.o $(BUILD)/asan/obj/tests/test_store.o: CPPFLAGS += -Isrc/server $(PQ_CFLAGS)
$(BUILD)/tests/test_store: $(STORE_SRCS:%.c=$(BUILD)/obj/%.o)
$(BUILD)/tests/test_store: LDLIBS += $(BUILD)/libtak.a $(STORE_LIBS) -lm
$(BUILD)/asan/tests/test_store: $(STORE_SRCS:%.c=$(BUILD)/asan/obj/%.o)
$(BUILD)/asan/tests/test_store: LDLIBS += $(BUILD)/asan/libtak.a $(STORE_LIBS) -lm

# Server tests (node + ws) against both builds and both stores, browser tests (node +
# playwright-core + chromium), the load benchmark; scripts/setup.sh installs
# what they need.
.PHONY: test-server e2e bench-server
# node's test runner, told to end once a file's tests are done even if
# something a failed test left open (a server, a socket) would keep it
# waiting, and to fail a file still running after SERVER_TEST_TIMEOUT ms
# (the slowest, under ASan, takes about 40 s): a hang would cost all of CI's
# time. Node before 20.14 lacks the first flag, before 20.11 the second.
SERVER_TEST_TIMEOUT ?= 300000
NODE_TEST := node --test $(shell node --test-force-exit -e 0 2>/dev/null && echo --test-force-exit) \
	$(if $(SERVER_TEST_TIMEOUT),$(shell node --test-timeout=1 -e 0 2>/dev/null && echo --test-timeout=$(SERVER_TEST_TIMEOUT)))
# First the store's own test on PostgreSQL (both builds). Each build runs the
# suite on the SQLite store, then on a throw-away
# PostgreSQL database (scripts/with-postgres.sh; skipped, loudly, without one),
# where tests/server/cluster.test.js also runs two servers sharing it.
test-server: $(BUILD)/tak $(BUILD)/asan/tak $(BUILD)/tests/test_store $(BUILD)/asan/tests/test_store
	scripts/with-postgres.sh $(BUILD)/tests/test_store
	scripts/with-postgres.sh $(BUILD)/asan/tests/test_store
	$(NODE_TEST) tests/server/
	TAK_BIN=$(BUILD)/asan/tak $(NODE_TEST) tests/server/
	scripts/with-postgres.sh $(NODE_TEST) tests/server/
	TAK_BIN=$(BUILD)/asan/tak scripts/with-postgres.sh $(NODE_TEST) tests/server/

e2e: $(BUILD)/tak
	bash scripts/e2e.sh

bench-server: $(BUILD)/tak
	node bench/server_load.js

# ---- tak play: line editing and history with GNU readline -----------------
# Only play_input.c uses it, and only when the header is installed
# (libreadline-dev, in scripts/setup.sh); without it input falls back to fgets.
ifneq ($(wildcard /usr/include/readline/readline.h),)
$(BUILD)/obj/src/cli/play_input.o $(BUILD)/asan/obj/src/cli/play_input.o: CPPFLAGS += -DTAK_HAVE_READLINE
$(BUILD)/tak $(BUILD)/asan/tak: LDLIBS += -lreadline
endif

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
