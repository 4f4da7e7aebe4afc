/* rollback: two players over a network with a delay, kept in step by rollback (the way fighting
 * and action games hide latency).
 *
 * Each player runs its own copy of the game: an arena with crates, the two players' ships
 * (dynamic discs steered by forces) and the bullets they fire. A player's input of a frame
 * (steer and fire) reaches the other only DELAY frames later, so each copy runs ahead on a
 * guess of the other's input (the last one it got) and, every frame, goes back: it restores the
 * snapshot of its last confirmed frame (the last frame whose inputs it knows from both), steps the
 * newly confirmed frames with the true inputs, snapshots the new confirmed frame, and steps on to
 * the present with guesses again. Three calls do the world's part: rc_world_frame_snapshot_size,
 * rc_world_snapshot_frame and rc_world_restore (frame snapshots: the arena's walls, the level,
 * never change, so each snapshot leaves them out; rc_world_snapshot would save them too). The
 * game's own state (here the list of bullets with their age) is saved beside each snapshot.
 *
 * The program checks that both copies agree on every confirmed frame (a hash of every body's
 * state) and that both agree with a third copy that knew every input at once; it prints the
 * sizes of a frame and a full snapshot and what a snapshot, a restore and a rollback of 8 frames
 * cost with each. Exits 1 if any
 * check fails.
 *
 *   rollback [--frames N]   frames to play (default 600) */
#include <ricochet/ricochet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { DELAY = 5, MAX_BULLETS = 64, MAX_FRAMES = 100000, CRATE_ROWS = 4, CRATE_COLUMNS = 6 };
#define DT (1.0f / 60.0f)

/* One player's input for one frame. */
typedef struct input {
    int8_t steer_x, steer_y; /* -1, 0, 1 */
    bool fire;
} input;

/* The game's own state, saved beside each snapshot: plain data (ids are plain data too). */
typedef struct game_state {
    rc_body_id ships[2];
    rc_body_id bullets[MAX_BULLETS];
    int32_t bullet_age[MAX_BULLETS];
    int32_t bullet_count;
    int32_t frame; /* frames stepped */
} game_state;

/* One copy of the game. */
typedef struct peer {
    rc_world *world;
    game_state game;
    void *confirmed;   /* snapshot of the last confirmed frame */
    size_t confirmed_size, capacity;
    game_state confirmed_game;
    int32_t confirmed_frame; /* frames whose inputs are known from both */
    input known[2][MAX_FRAMES];
    int32_t known_count[2]; /* inputs received (own: all it made) */
} peer;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Player p's input at frame f: made up, the same on every machine. */
static input make_input(int p, int32_t f) {
    uint32_t x = (uint32_t)f * 2654435761u ^ (uint32_t)(p + 1) * 0x9E3779B9u;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    input in = {(int8_t)((int)((x >> 3) % 3u) - 1), (int8_t)((int)((x >> 7) % 3u) - 1), (x & 0x70u) == 0u};
    if ((f / 40) % 2 == p) { /* each steers steadily for a while, so that guesses are often right */
        in.steer_x = (int8_t)(p == 0 ? 1 : -1);
        in.steer_y = 0;
    }
    return in;
}

static rc_world *make_arena(game_state *g) {
    rc_world_def wd = rc_world_default_def();
    wd.gravity = rc_v2(0.0f, 0.0f);
    wd.id_salt = 0x0DDBA11u; /* both copies hand out the same ids */
    rc_world *w = rc_world_create(&wd);
    if (w == NULL) {
        return NULL;
    }
    rc_body_def bd = rc_body_default_def();
    rc_body_id level = rc_body_create(w, &bd);
    rc_shape_def sd = rc_shape_default_def();
    sd.restitution = 0.5f;
    rc_vec2 walls[4] = {{-20, -12}, {20, -12}, {20, 12}, {-20, 12}};
    rc_shape_create_chain(w, level, &sd, walls, 4, true);
    for (int row = 0; row < CRATE_ROWS; ++row) {
        for (int column = 0; column < CRATE_COLUMNS; ++column) {
            bd = rc_body_default_def();
            bd.type = RC_DYNAMIC;
            bd.position = rc_v2(-10.0f + 4.0f * (float)column, -6.0f + 4.0f * (float)row);
            bd.linear_damping = 1.0f;
            bd.angular_damping = 1.0f;
            rc_shape_create_box(w, rc_body_create(w, &bd), &sd, 0.6f, 0.6f);
        }
    }
    for (int p = 0; p < 2; ++p) {
        bd = rc_body_default_def();
        bd.type = RC_DYNAMIC;
        bd.position = rc_v2(p == 0 ? -16.0f : 16.0f, 0.0f);
        bd.linear_damping = 2.0f;
        g->ships[p] = rc_body_create(w, &bd);
        sd.density = 2.0f;
        rc_shape_create_polygon(w, g->ships[p], &sd, (rc_vec2[]){{-0.8f, -0.5f}, {0.8f, 0.0f}, {-0.8f, 0.5f}}, 3);
    }
    return w;
}

/* One frame of the game with both inputs: steer, fire, age out bullets, step. */
static bool play_frame(rc_world *w, game_state *g, const input in[2]) {
    for (int p = 0; p < 2; ++p) {
        rc_vec2 force = rc_v2(60.0f * in[p].steer_x, 60.0f * in[p].steer_y);
        if (!rc_body_apply_force_to_center(w, g->ships[p], force)) {
            return false;
        }
        if (in[p].fire && g->bullet_count < MAX_BULLETS) {
            rc_body_def bd = rc_body_default_def();
            bd.type = RC_DYNAMIC;
            bd.bullet = true;
            bd.max_bounces = 3;
            rc_vec2 at = rc_body_position(w, g->ships[p]);
            bd.position = rc_add(at, rc_v2(p == 0 ? 1.2f : -1.2f, 0.0f));
            bd.linear_velocity = rc_v2(p == 0 ? 40.0f : -40.0f, 3.0f * in[p].steer_y);
            g->bullets[g->bullet_count] = rc_body_create(w, &bd);
            g->bullet_age[g->bullet_count++] = 0;
        }
    }
    for (int32_t i = 0; i < g->bullet_count;) {
        if (++g->bullet_age[i] > 90) {
            rc_body_destroy(w, g->bullets[i]);
            g->bullets[i] = g->bullets[--g->bullet_count];
            g->bullet_age[i] = g->bullet_age[g->bullet_count];
        } else {
            ++i;
        }
    }
    g->frame++;
    return rc_world_step(w, DT);
}

/* Every body's state, bit for bit. */
static uint64_t world_hash(const rc_world *w, const game_state *g) {
    uint64_t h = 14695981039346656037ull;
    rc_body_id ids[2 + MAX_BULLETS];
    int n = 0;
    ids[n++] = g->ships[0];
    ids[n++] = g->ships[1];
    for (int32_t i = 0; i < g->bullet_count; ++i) {
        ids[n++] = g->bullets[i];
    }
    for (int i = 0; i < n; ++i) {
        rc_transform xf = rc_body_transform(w, ids[i]);
        rc_vec2 v = rc_body_linear_velocity(w, ids[i]);
        float values[6] = {xf.p.x, xf.p.y, xf.q.c, xf.q.s, v.x, v.y};
        for (int k = 0; k < 6; ++k) {
            uint32_t bits;
            memcpy(&bits, &values[k], sizeof bits);
            h = (h ^ bits) * 1099511628211ull;
        }
    }
    return h ^ ((uint64_t)(uint32_t)rc_world_get_counters(w).bodies * 0x9E3779B97F4A7C15ull);
}

static bool save_confirmed(peer *p) {
    size_t size = rc_world_frame_snapshot_size(p->world);
    if (size > p->capacity) {
        void *grown = realloc(p->confirmed, size);
        if (grown == NULL) {
            return false;
        }
        p->confirmed = grown;
        p->capacity = size;
    }
    p->confirmed_size = rc_world_snapshot_frame(p->world, p->confirmed, p->capacity);
    p->confirmed_game = p->game;
    return p->confirmed_size > 0;
}

/* The input of player q at frame f as peer p knows or guesses it (the last it got). */
static input input_at(const peer *p, int q, int32_t f) {
    if (f < p->known_count[q]) {
        return p->known[q][f];
    }
    input none = {0, 0, false};
    return p->known_count[q] > 0 ? p->known[q][p->known_count[q] - 1] : none;
}

/* A frame on peer p: back to the confirmed frame, on with the inputs now known, snapshot the
 * new confirmed frame, then on to the present (frame `present`) with guesses. */
static bool advance(peer *p, int32_t present, uint64_t *confirmed_hashes) {
    if (!rc_world_restore(p->world, p->confirmed, p->confirmed_size)) {
        fprintf(stderr, "rollback: restore: %s\n", rc_world_last_error(p->world));
        return false;
    }
    p->game = p->confirmed_game;
    int32_t both = p->known_count[0] < p->known_count[1] ? p->known_count[0] : p->known_count[1];
    for (int32_t f = p->confirmed_frame; f < both; ++f) {
        input in[2] = {input_at(p, 0, f), input_at(p, 1, f)};
        if (!play_frame(p->world, &p->game, in)) {
            return false;
        }
        confirmed_hashes[f + 1] = world_hash(p->world, &p->game);
    }
    if (both > p->confirmed_frame) {
        p->confirmed_frame = both;
        if (!save_confirmed(p)) {
            return false;
        }
    }
    for (int32_t f = p->confirmed_frame; f < present; ++f) {
        input in[2] = {input_at(p, 0, f), input_at(p, 1, f)};
        if (!play_frame(p->world, &p->game, in)) {
            return false;
        }
    }
    return true;
}

static int frames_from_args(int argc, char **argv) {
    int frames = 600;
    for (int i = 1; i + 1 < argc; ++i) {
        if (strcmp(argv[i], "--frames") == 0) {
            frames = (int)strtol(argv[i + 1], NULL, 10);
        }
    }
    return frames < 1 ? 1 : (frames > MAX_FRAMES - DELAY - 2 ? MAX_FRAMES - DELAY - 2 : frames);
}

/* What a snapshot, a restore and a rollback of 8 frames take on this world (ms, best of 20), with
 * frame snapshots or full ones. */
static void report_costs(rc_world *w, game_state *g, bool frame) {
    size_t size = frame ? rc_world_frame_snapshot_size(w) : rc_world_snapshot_size(w);
    void *buffer = malloc(size);
    if (buffer == NULL) {
        return;
    }
    double snap = 1e9, restore = 1e9, rollback = 1e9, step = 1e9;
    game_state saved = *g;
    for (int k = 0; k < 20; ++k) {
        double t0 = now();
        if (frame) {
            rc_world_snapshot_frame(w, buffer, size);
        } else {
            rc_world_snapshot(w, buffer, size);
        }
        double t1 = now();
        rc_world_restore(w, buffer, size);
        double t2 = now();
        input in[2] = {make_input(0, g->frame), make_input(1, g->frame)};
        for (int f = 0; f < 8; ++f) {
            play_frame(w, g, in);
        }
        double t3 = now();
        rc_world_restore(w, buffer, size);
        *g = saved;
        snap = t1 - t0 < snap ? t1 - t0 : snap;
        restore = t2 - t1 < restore ? t2 - t1 : restore;
        rollback = t3 - t1 < rollback ? t3 - t1 : rollback;
        step = (t3 - t2) / 8.0 < step ? (t3 - t2) / 8.0 : step;
    }
    rc_world_counters c = rc_world_get_counters(w);
    printf("%s snapshot: %zu bytes (%d bodies, %d shapes, %d contacts); snapshot %.3f ms, restore %.3f ms, a step "
           "%.3f ms\n",
           frame ? "frame" : "full", size, c.bodies, c.shapes, c.contacts, 1e3 * snap, 1e3 * restore, 1e3 * step);
    printf("a rollback of 8 frames (restore, then 8 steps), %s snapshots: %.3f ms\n", frame ? "frame" : "full",
           1e3 * rollback);
    free(buffer);
}

int main(int argc, char **argv) {
    int32_t frames = frames_from_args(argc, argv);
    static peer peers[2];
    game_state ref_game = {0};
    rc_world *ref = make_arena(&ref_game);
    uint64_t *hashes[3];
    for (int k = 0; k < 3; ++k) {
        hashes[k] = calloc((size_t)frames + 2, sizeof(uint64_t));
    }
    bool ok = ref != NULL && hashes[0] != NULL && hashes[1] != NULL && hashes[2] != NULL;
    for (int i = 0; i < 2 && ok; ++i) {
        peers[i].world = make_arena(&peers[i].game);
        ok = peers[i].world != NULL && save_confirmed(&peers[i]);
    }
    int32_t rollbacks = 0;
    for (int32_t f = 0; f < frames && ok; ++f) {
        /* each player makes its input, which reaches the other DELAY frames later */
        for (int i = 0; i < 2; ++i) {
            peers[i].known[i][peers[i].known_count[i]++] = make_input(i, f);
            if (f >= DELAY) {
                peer *other = &peers[1 - i];
                other->known[i][other->known_count[i]++] = make_input(i, f - DELAY);
            }
        }
        for (int i = 0; i < 2 && ok; ++i) {
            ok = advance(&peers[i], f + 1, hashes[i]);
            rollbacks += f + 1 - peers[i].confirmed_frame > 0;
        }
        input in[2] = {make_input(0, f), make_input(1, f)};
        ok = ok && play_frame(ref, &ref_game, in);
        hashes[2][f + 1] = world_hash(ref, &ref_game);
    }
    int32_t confirmed = peers[0].confirmed_frame < peers[1].confirmed_frame ? peers[0].confirmed_frame : peers[1].confirmed_frame;
    int32_t mismatches = 0;
    for (int32_t f = 1; f <= confirmed && ok; ++f) {
        mismatches += hashes[0][f] != hashes[1][f] || hashes[0][f] != hashes[2][f];
    }
    if (ok) {
        printf("rollback: %d frames, inputs %d frames late; %d frames confirmed on both players, %d predicted frames "
               "rolled back; hashes that differ: %d\n",
               frames, DELAY, confirmed, rollbacks, mismatches);
        report_costs(ref, &ref_game, true);
        report_costs(ref, &ref_game, false);
    }
    for (int i = 0; i < 2; ++i) {
        rc_world_destroy(peers[i].world);
        free(peers[i].confirmed);
    }
    rc_world_destroy(ref);
    for (int k = 0; k < 3; ++k) {
        free(hashes[k]);
    }
    if (!ok || mismatches != 0 || confirmed < frames - DELAY) {
        fprintf(stderr, "rollback: FAILED (%s)\n", ok ? "the players' worlds differ" : "a call failed");
        return 1;
    }
    return 0;
}
