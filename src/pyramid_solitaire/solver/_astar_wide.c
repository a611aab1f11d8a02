/* The shortest search's C loop with free cells: _astar.c compiled with WIDE defined, its positions of
 * 128 bits (the parked places above the 64 of the narrow build; see state_t there). */
#define WIDE 1
#include "_astar.c"
