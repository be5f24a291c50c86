#ifndef LIVERY_CLIBYAML_SHIM_H
#define LIVERY_CLIBYAML_SHIM_H
#include <yaml.h>
#endif
