#ifndef LIVERY_CINOTIFYTOOLS_SHIM_H
#define LIVERY_CINOTIFYTOOLS_SHIM_H
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <inotifytools/inotifytools.h>
#endif
