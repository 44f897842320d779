/**
 * \file
 * version.h: the library's version, the one place it is written. The
 * Makefile reads these macros for the shared library's soname
 * (libtak.so.MAJOR), the pkg-config file and `tak --version`; CHANGELOG.md
 * says what each version changed.
 */
#ifndef TAK_VERSION_H
#define TAK_VERSION_H

/** Incremented when a change breaks programs built against an earlier version. */
#define TAK_VERSION_MAJOR 1
/** Incremented when functions are added and nothing breaks. */
#define TAK_VERSION_MINOR 0
/** Incremented for fixes that change no declaration. */
#define TAK_VERSION_PATCH 0
/** The three numbers as text, "MAJOR.MINOR.PATCH". */
#define TAK_VERSION "1.0.0"

/** The version of the library linked at run time ("1.0.0"), which may differ
 * from TAK_VERSION, the version of the headers a program was compiled with. */
const char *tak_version(void);

#endif
