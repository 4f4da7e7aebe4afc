/* The joint solver in double, for the joints whose sizes a float cannot hold (joint_solver.c
 * says which and why): the passes of world/joint_passes.h, another arithmetic. */
#define RC_JOINT_WIDE 1
#include "world/joint_passes.h"
