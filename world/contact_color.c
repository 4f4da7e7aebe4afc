/* Colouring the step's constraints for the soft step (solver.h): each gets a colour that
 * neither of its moving bodies has yet, so that a colour's constraints can be solved four (or
 * eight) at a time; then they are sorted into runs (a colour's one-point and two-point constraints, and
 * those no colour took), and each is given its block and lane (contact_solver.c packs them). */
#include "world/solver.h"

/* A constraint's run: its colour's one-point or two-point constraints (each packed into blocks
 * of their own, so that a block of one-point contacts skips the second point: points_of), or
 * the ones no colour took. Within a colour no two constraints move the same body, so the order
 * of its runs changes no result. */
static inline int32_t run_of(const rc_contact_constraint *c) {
    return c->color == RC_SOLVER_COLORS ? RC_SOLVER_RUNS - 1 : 2 * c->color + (c->point_count > 1 ? 1 : 0);
}

/* Where each run's blocks start, from how many constraints each has (lanes to a block; the
 * ones no colour took, one each), and how many blocks there are. */
static int32_t first_blocks(const int32_t count[RC_SOLVER_RUNS], int32_t lanes, int32_t first_block[RC_SOLVER_RUNS]) {
    int32_t b = 0;
    for (int32_t run = 0; run < RC_SOLVER_RUNS; ++run) {
        first_block[run] = b;
        b += run == RC_SOLVER_RUNS - 1 ? count[run] : (count[run] + lanes - 1) / lanes;
    }
    return b;
}

void rc_solver_assign_colors(rc_soft_step *s) {
    uint32_t *used = s->colors;
    for (int32_t i = 0; i < s->state_count; ++i) {
        used[i] = 0u;
    }
    /* a colour neither moving body of the constraint has yet (a side that is not moved by the
       solver, static or kinematic, shares any colour), searched from where the constraint's
       rank points: between two moving bodies in the first half of the colours, against a side
       that does not move in the second half, so that each sub-step solves contacts with walls
       and floors after the contacts between bodies (the wall has the last word: a crate
       wedged against a wall by a plank gained 12% of its energy in a step when the plank's
       contacts came after the wall's).
       Searched in the constraints' order from colour 0 (first fit), the colours followed the
       bodies through space: every box of a pyramid had its upper-left support solved before
       its upper-right one, the load leaned the same way in every row, and a pyramid of 100
       rows swayed (its top 0.14 off) for a second before it slept. */
    for (int32_t i = 0; i < s->constraint_count; ++i) {
        const rc_contact_constraint *c = &s->constraints[i];
        bool da = c->a >= 0 && c->inv_mass_a > 0.0f, db = c->b >= 0 && c->inv_mass_b > 0.0f;
        uint32_t mask = (da ? used[c->a] : 0u) | (db ? used[c->b] : 0u);
        int32_t half = RC_SOLVER_COLORS / 2, start = (int32_t)(c->rank % (uint32_t)half);
        int32_t color = rc_first_free_color(mask, da && db ? start : half + start, RC_SOLVER_COLORS);
        if (color < RC_SOLVER_COLORS) {
            if (da) {
                used[c->a] |= 1u << color;
            }
            if (db) {
                used[c->b] |= 1u << color;
            }
        }
        s->constraints[i].color = (uint8_t)color;
    }
}

int32_t rc_solver_runs(rc_soft_step *s) {
    int32_t count[RC_SOLVER_RUNS] = {0};
    for (int32_t i = 0; i < s->constraint_count; ++i) {
        count[run_of(&s->constraints[i])]++;
    }
    /* each constraint's place among them sorted by run, in their order within each (a
       counting sort), as its block and lane */
    int32_t first_block[RC_SOLVER_RUNS], at_run[RC_SOLVER_RUNS] = {0};
    int32_t lanes = s->lanes, blocks = first_blocks(count, lanes, first_block);
    s->block_count = blocks;
    for (int32_t i = 0; i < s->constraint_count; ++i) {
        int32_t run = run_of(&s->constraints[i]), at = at_run[run]++;
        /* (the ones no colour took: one to a block, in its first lane) */
        s->order[i] = run == RC_SOLVER_RUNS - 1 ? (first_block[run] + at) * lanes
                                                : first_block[run] * lanes + at;
    }
    return blocks;
}

int32_t rc_solver_color(rc_soft_step *s) {
    rc_solver_assign_colors(s);
    return rc_solver_runs(s);
}
