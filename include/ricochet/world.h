/* ricochet: world.h
 * The world: bodies carrying shapes, and the step. Its queries are declared in query.h, its events
 * and the pre-solve callback in events.h (both included here); what follows holds for all three.
 *
 * Units. Lengths in world units (metres suggested), time in seconds, angles in radians,
 * mass in density * area. The defaults of the tuning values below assume metre-sized objects;
 * a game working in pixels scales them.
 *
 * Ownership. The world owns every body and shape; ids are handles (see id.h). Pointers
 * returned by event and query functions point into the world and stay valid until the next
 * call that changes the world (step, create, destroy, set).
 *
 * Memory. Every byte comes from the world's allocator (rc_world_def.allocator) and goes back to
 * it. Storage grows with the bodies, shapes and contacts and is kept while they come and go, so
 * that a game at a steady state allocates nothing; once the bodies (or shapes, or contacts)
 * alive fall to a quarter of the most there were since, the next step gives the rest back,
 * and the per-step lists (events, the solver's scratch) shrink to twice what a step used when
 * they hold four times more. rc_world_get_counters().bytes says what is held at any moment.
 *
 * Errors. Every function checks its arguments: NaN or infinite numbers, NULL pointers,
 * negative counts, ids that are null, stale (destroyed), forged or of another world, a time
 * step that is not finite and positive. A bad call returns its error value (false, a null id,
 * a zero vector, -1 or 0 as documented), leaves the world exactly as it was, records a message
 * readable with rc_world_last_error, and calls the world's error callback if there is one.
 * The library never asserts or aborts on user input. A NULL world pointer is refused the same
 * way but has nowhere to record a message.
 *
 * Callbacks. The library calls game code from the overlap and all-hits cast queries (their
 * fn), from rc_world_draw (the draw callbacks), from rc_world_step and rc_world_predict (the
 * pre-solve callback) and from refused calls (the error callback).
 * While any of them runs, the world is locked: every call that changes the world (those that
 * take a non-const rc_world *, rc_world_destroy and rc_world_step included) is refused with
 * an error that says so and changes nothing, and the query that made the callback goes on
 * exactly as if the call had not been made. Queries and getters answer as usual inside a
 * callback, and may make callbacks of their own. So a grenade's blast collects what
 * rc_world_overlap_circle reports and destroys it after the query returns. The lock counts:
 * it holds while any callback of any thread runs. rc_world_clear_error and
 * rc_world_last_error only touch the calling thread's message and work at any time.
 *
 * The error callback runs on the thread whose call was refused, before the call returns, with
 * the world locked; a call refused inside it returns its error value without replacing the
 * message being reported and without calling the error callback again. With queries running
 * on several threads it may run on several at once.
 *
 * Threads. Queries (the functions taking a const rc_world *) may run concurrently with each
 * other, on any threads; nothing may run concurrently with a call that changes the world.
 * Several worlds are independent. The message of a refused call is kept per thread, as errno
 * is: rc_world_last_error(world) returns the message of the latest call this thread made on
 * this world that was refused ("" when there was none since rc_world_clear_error), and a
 * refusal writes nothing in the world, so that refused queries on several threads do not race.
 * A thread keeps the messages of the last four worlds it was refused by (a fifth world's
 * refusal forgets the oldest). */
#ifndef RICOCHET_WORLD_H
#define RICOCHET_WORLD_H

#include "geometry.h"
#include "id.h"
#include "math.h"

RC_EXTERN_C_BEGIN

typedef struct rc_world rc_world;

/* ---- world ----------------------------------------------------------------------------------- */

/* Called with the message of every refused call. */
typedef void rc_error_fn(const char *message, void *user);

/* The task system: the game's threads, lent to the world (the shape Box2D v3 and game engines
 * use). The world hands work out as a task over items 0 .. item_count - 1:
 *   - rc_enqueue_task_fn is called with the task, item_count, min_range, task_context and
 *     rc_world_def.user_task_context. It has task(start, end, worker_index, task_context) run
 *     over ranges [start, end) that together cover every item once, each of at least min_range
 *     items where there are that many, on any threads, with worker_index below worker_count and
 *     no two ranges that run at the same time sharing a worker_index. It returns a handle for
 *     rc_finish_task_fn, or NULL when it ran every range itself before returning.
 *   - rc_finish_task_fn(handle, user_context) returns once every range of that task has run.
 * The task functions touch only the world's memory and their own items; results do not depend
 * on how the ranges are split or on which threads run them. The world is locked (see
 * Callbacks) from the enqueue to the finish. Queries running on several threads at once may
 * enqueue tasks at the same time. Without a task system everything runs on the calling
 * thread. */
typedef void rc_task_fn(int32_t start_index, int32_t end_index, uint32_t worker_index, void *task_context);
typedef void *rc_enqueue_task_fn(rc_task_fn *task, int32_t item_count, int32_t min_range, void *task_context,
                                 void *user_context);
typedef void rc_finish_task_fn(void *user_task, void *user_context);

/* The most workers a task system may bring. */
#define RC_MAX_WORKERS 64

typedef struct rc_world_def {
    rc_vec2 gravity;              /* acceleration, units/s^2; default (0, -10) */
    float cell_size;              /* broadphase level-0 cell size; 0 (default) chooses it from the shapes */
    rc_allocator allocator;       /* all memory of the world comes from here; NULLs mean malloc */
    rc_error_fn *error_fn;        /* optional */
    void *error_user;             /* passed to error_fn */
    bool enable_sleep;            /* bodies at rest fall asleep; default true */
    float sleep_time;             /* seconds below the sleep speeds before sleeping; default 0.5 */
    float sleep_linear_speed;     /* units/s; default 0.05: the speed of the body's fastest point
                                     (its centre's speed plus its reach from the centre of mass
                                     times its angular speed, as Box2D v3) */
    float sleep_angular_speed;    /* rad/s; default 0.05: and the angular speed itself */
    float restitution_threshold;  /* approach speeds below this do not bounce; units/s; default 1 */
    float contact_skin;           /* gap kept between a swept body and the surface it stops at; default 1e-4
                                     (grown where float spacing at the body's coordinates is coarser);
                                     at most 1e9 */
    int32_t sub_steps;            /* sub-steps of the contact solver per step (1..64); default 4 */
    float linear_slop;            /* units; solid bodies are held at zero overlap and count as touching
                                     (contact events, islands) within linear_slop of it; contacts are
                                     looked at from four times as far apart (speculatively); default
                                     0.005 */
    float contact_hertz;          /* how stiffly overlap is pushed out, Hz; default 30; a step solves
                                     contacts no stiffer than an eighth of its sub-step rate
                                     (sub_steps / dt: 30 Hz at 60 Hz with 4 sub-steps, 15 Hz at
                                     30 Hz), twice that against static and kinematic bodies */
    float contact_damping_ratio;  /* and how damped; default 10 */
    float contact_push_speed;     /* the fastest overlap is pushed out, units/s; default 3 */
    int32_t body_capacity;        /* expected bodies, to size storage up front; optional */
    int32_t shape_capacity;       /* expected shapes; optional */
    float max_linear_speed;       /* units/s; no body moves faster after a step (a restitution above 1,
                                     gravity over a long step); default 1e6; at most RC_MAX_LINEAR_SPEED */
    float max_angular_speed;      /* rad/s; likewise for turning; default 1e5; at most RC_MAX_ANGULAR_SPEED */
    uint32_t id_salt;             /* mixed into the generation of every id the world hands out, so that
                                     an id of another world is refused; 0 (default) takes one from the
                                     world's address and the time it is made (an id of a world destroyed
                                     before is refused by a later one at the same address). Give the
                                     same non-zero value wherever ids must be the same from run to run
                                     (see Determinism at rc_world_step), and different ones to worlds
                                     whose ids must not be taken for each other's. */
    int32_t worker_count;         /* threads the task system runs tasks on, 0..RC_MAX_WORKERS (0 and 1:
                                     one); default 1 */
    rc_enqueue_task_fn *enqueue_task; /* the task system: both or neither (then the calling thread */
    rc_finish_task_fn *finish_task;   /* runs everything); used by rc_world_cast_rays and by the
                                         step's sweeps (bullets, grenades), with the same
                                         results whatever the workers. While a pre-solve
                                         callback is set, the sweeps stay on the step's thread (the
                                         callback is never called from a worker) */
    void *user_task_context;      /* passed to enqueue_task and finish_task */
} rc_world_def;

RC_API rc_world_def rc_world_default_def(void);

/* How far from the origin the world reaches: every coordinate of a body's position and of its
 * shapes as placed lies within [-RC_WORLD_LIMIT, RC_WORLD_LIMIT] (2^60, about 1.15e18 units).
 * Placements beyond it (a body made or moved there, a shape whose box would reach beyond it)
 * are refused, and the step stops a body that would move or turn past it at the edge: its
 * centre of mass goes back along that axis until its centre, its position and its shapes are
 * all within, and its velocity along that axis is dropped (a body that no such move would bring
 * back stays where it was, stopped). Within it, distances and their squares stay in float
 * range, so no query or step overflows. Queries take any finite input. */
#define RC_WORLD_LIMIT 1.152921504606846976e18f

/* How far a body that moves reaches from its position: every coordinate of a dynamic or
 * kinematic body's shapes in the body's own frame (as if it were at the origin, unturned), and
 * of its centre of mass there, lies within [-RC_BODY_REACH, RC_BODY_REACH] (2^58, a quarter of
 * RC_WORLD_LIMIT, about 2.9e17 units). A shape, a chain, a base transform, a centre of mass
 * (rc_body_set_mass_data) or a change to a moving type that would give one beyond it is
 * refused. (A body turns about its centre of mass, and its position and shapes swing around it:
 * a centre of mass 1e18 from the position swung the position out to 2e18 in half a turn.) */
#define RC_BODY_REACH 2.88230376151711744e17f

/* The heaviest a dynamic body may be, and its largest rotational inertia (about its centre of
 * mass): beyond them the impulses of its contacts would leave float range. A body's shapes that
 * would give more (density times area, and their spread), or a point mass above RC_MAX_MASS,
 * are refused. The speed limits in rc_world_def are bounded for the same reason. */
#define RC_MAX_MASS 1.0e20f
#define RC_MAX_ROTATIONAL_INERTIA 1.0e30f
#define RC_MAX_LINEAR_SPEED 1.0e9f  /* the largest max_linear_speed a world takes, units/s */
#define RC_MAX_ANGULAR_SPEED 1.0e6f /* the largest max_angular_speed, rad/s */

/* The longest step rc_world_step takes, in seconds: longer ones are refused (a game clamps the
 * frame time after a pause; a hitch of up to a second or two is a normal step). */
#define RC_MAX_TIME_STEP 60.0f

/* A new world, or NULL when def is NULL, a value in it is out of range (non-finite gravity,
 * negative cell size or tuning values, speed limits that are not finite and positive, negative
 * capacities, a worker count outside 0..RC_MAX_WORKERS, only one of enqueue_task and
 * finish_task) or memory runs out. */
RC_API rc_world *rc_world_create(const rc_world_def *def);

/* Destroys the world with all its bodies and shapes. NULL is ignored. */
RC_API void rc_world_destroy(rc_world *world);

/* The message of the calling thread's most recent refused call on this world, "" when there
 * was none (or after rc_world_clear_error; see Threads above). Never NULL; "" for a NULL
 * world. The string stays valid until this thread's next refused call or clear. */
RC_API const char *rc_world_last_error(const rc_world *world);
RC_API void rc_world_clear_error(rc_world *world);

/* Advance the world by dt seconds:
 *   0. the pairs that began since the last step (shapes made, bodies placed, filters changed)
 *      become contacts with their manifolds, so that the solve meets them in this step (a crate
 *      made resting on a table is held from its first step);
 *   1. the contact solver: awake dynamic bodies that respond (gravity times gravity scale,
 *      applied forces, damping) against everything they touch or may touch within the step,
 *      in sub_steps soft sub-steps (see "Collision response" below);
 *   2. move kinematic bodies by their velocities, then the solver's bodies that are not swept
 *      by the motion it found, a fast one stopped at its first touch of a static or kinematic
 *      shape (continuous collision); detection-only bodies by their velocities;
 *   3. sweep grenades against static and kinematic shapes, then bullets against every body
 *      that is not a bullet, each along its motion in this step (see "Bodies in motion"),
 *      bouncing them and buffering impact events; what they strike takes the impulse, which
 *      moves it from the next step on;
 *   4. update the broadphase, find new pairs, run the narrow phase (contact and sensor events);
 *   5. put islands of touching bodies at rest to sleep.
 * False when dt is not finite and positive, or above RC_MAX_TIME_STEP (or memory runs out):
 * then nothing changed. After the step no body moves faster than the world's max_linear_speed
 * or turns faster than its max_angular_speed.
 *
 * Collision response. Every dynamic body is solid (unless enable_response is false):
 *   - the contact solver (Box2D v3's soft step: sub-steps, soft contacts that push overlap out
 *     at up to contact_push_speed, warm starting from the last step's impulses by feature id
 *     (none where the normal turned past 60 degrees, and a body's together at most what its
 *     contacts can need of it in a sub-step: a crate squeezed between a door and a wall is not
 *     thrown when one side lets go), a relax pass, then restitution above
 *     restitution_threshold) holds bodies on what they touch with Coulomb friction per point
 *     and rolling resistance for round shapes; contacts
 *     are speculative, met from as far apart as the pair can close in a step; a body at rest
 *     is held at zero overlap with what holds it (sunk only by the soft contacts' give under
 *     load), and touches it within linear_slop; islands of touching bodies sleep together;
 *   - a prop that moves further than half its smallest extent in a step is brought back to its
 *     first touch of a static or kinematic shape (time of impact), so that it does not pass
 *     through thin walls or chains; a kinematic body is met along its own motion in the step
 *     (where its shapes started the step as well as where they end it), and carries what it
 *     meets for the rest of the step up to that prop's first touch of a static shape (a prop
 *     thrown at a door closing on it ends the step in front of the door; one a piston drives
 *     at a wall stops at the wall, and the piston passes over it if it goes on); a prop that
 *     moves slowly in a kinematic body's frame (riding a lift, tumbling in a turning drum) is
 *     left to the contacts there; props
 *     turn at most an eighth of a turn (pi/4) per sub-step (bodies whose solid shapes are all circles as
 *     fast as the world allows);
 *   - kinematic bodies push and carry what they meet and are not pushed;
 *   - a bullet (a dynamic body with bullet = true that carries no solid shape, a point, or one
 *     solid circle) is swept along its motion against every body that is not a bullet (two
 *     bullets' solid shapes never pair: no contact between them, no events, no push: a volley
 *     fired from one muzzle starts overlapping and flies apart untouched);
 *   - a grenade (a dynamic body, not a bullet, whose only solid shape is one circle) is swept
 *     against static and kinematic bodies, and meets other dynamic bodies in the solver; held
 *     by contacts (resting, rolling, in a pile) it moves along the solver's path, stopped a
 *     skin short of what it slides on.
 * In free flight a swept body moves along the chord of its parabola (exact positions under
 * gravity). At a hit the body stops at the contact (contact_skin short of it), its velocity at
 * that moment relative to the surface is reflected: the normal part becomes -e times itself
 * (e = 0 when the approach is slower than restitution_threshold) and the tangent part loses at
 * most mu times the normal impulse, never reversing; then the body goes on for the rest of the
 * step from the point of contact. A landing that leaves it too slow to get away holds it on the
 * surface for the rest of the step: the gravity still to come no longer presses it in, and its
 * sliding loses at most mu times that held weight (Coulomb friction: a point slides down a
 * slope at g (sin - mu cos) and stays where mu holds it). e is the larger of
 * the two restitutions, mu the square root of the product of the frictions; a point takes the
 * surface's values. A struck dynamic body takes the opposite impulse, so momentum is kept: the
 * relative velocity above is the one at the contact, with the struck body's turn, and the impulse
 * is worked out with the masses and rotational inertias of both there (the rebound and friction
 * rules one impulse, not one after the other). Where that impulse would turn the struck body
 * faster than the solver lets it turn (see above; or faster than it already turns), it turns at
 * that limit, and the impulse is the one that makes the same rebound and friction with the body
 * turning that far and no further: the two take opposite impulses and the rebound is exact,
 * and the angular impulse the limit keeps from the body is lost (a heavy bullet at a light
 * crate's corner rebounds as off a crate that turns no faster). For the rest of that step the
 * struck body is met where its motion from before the hit puts it, at the velocity the hit left
 * it: where they part by those velocities the swept body slides along it, keeping its
 * velocity, and goes on from there. One at rest that a static or
 * kinematic body it touches braces against it (a prop on the floor struck from above) does not
 * give way into that brace, and the bullet rebounds as off the brace itself. After max_bounces
 * bounces in one step the body stops at its next contact for the rest of the step, and makes
 * that bounce in the next step, where it counts among that step's (with max_bounces = 0 at
 * that moment, or at any hit, it stops dead instead: a bullet that embeds itself; a struck
 * dynamic body takes all its momentum, less what a brace takes). Its life's
 * bounces are counted too: a body with a bounce budget (rc_body_def.bounce_budget) stops dead
 * at its first hit after it made them, spent (a bounce counts for the budget when its impact
 * event is reported: a body resting or rolling on a surface does not use it up). A shape that
 * absorbs projectiles (rc_shape_def.absorbs_projectiles: an enemy, a sandbag) stops a swept body
 * dead at its first hit, takes all its momentum (when dynamic) and spends it: no bounces left,
 * its impact event spent. A swept circle that starts a step at a static or kinematic surface
 * it moves into at restitution_threshold or faster is struck by its sweep, not held by the
 * solver. A swept body
 * never ends a step beyond a surface it crossed. A body that something moved onto (a
 * kinematic body, or a grenade resting where another moves) starts its next sweep by being
 * pushed out, and that push is swept too; a point that starts a step inside a static shape
 * (a bullet spawned in a wall) stays there. A dynamic body with enable_response = false moves
 * by its velocity and impulses only: its contacts are found and reported, not resolved.
 *
 * Seams and long walls. Shapes laid edge to edge (a floor of boxes, a wall of tiles) are one
 * surface to a swept body: a bullet aimed at the seam between two boxes strikes their common
 * face (of two hits at one point, within rounding, the one whose normal does not point into
 * the other shape), and a grenade rolling over the seam of static or kinematic polygons feels
 * the face that runs on in line there, not the corner, so it rolls without a hop. Solid props
 * (polygons and capsules) meet such a floor as one surface too: a face of a static polygon that
 * another static polygon's face covers whole is no surface, and where another's face runs on
 * in line through a corner the surface is flat there (the polygon is met as a chain of its
 * other faces; a kinematic polygon's neighbours are its own body's polygons), and continuous
 * collision passes such faces and corners; so a crate slides over a floor of boxes as over one
 * long box, while a step (a face covered only in part) still stops it. Hits are
 * exact on walls of any length (the tests measure an edge's line in double): a bullet stops a
 * skin short of the face of a box 100,000 units long as of a short one.
 *
 * Bodies in motion. Sweeps meet moving bodies where those are at each moment of the step, not
 * where they stood at its start: a kinematic or dynamic body moves on a straight line (its
 * centre of mass) while turning evenly, from where it starts the step to where it ends it, and
 * a grenade, for the bullets swept after it, along the chord from its start to its end. Against
 * a body that only moves in the step the hit is exact (the relative motion is a straight
 * line); against one that turns it is found by conservative advancement to within half the
 * contact skin. So a bullet strikes a grenade in flight wherever their paths cross in the step,
 * a wall receding as fast as a bullet never holds it, and a grenade dropped on a rising
 * platform or a turning blade is struck where the surface meets it and bounces off its motion
 * (the surface's velocity at the contact). A surface that strikes a swept body which was not
 * moving into it (a door swinging onto a grenade at rest) pushes it: an impact that is not one
 * of its bounces, asleep or not (a point bullet asleep wakes for a step in which a shape of a
 * moving kinematic body, or of a dynamic one not at rest, may reach it). Nothing swept ends a
 * step inside a moving body: one that kept pressing on it (a blade turning through a grenade it
 * carries) pushes it out where it ends the step. A body squeezed between a moving polygon and
 * something that does not give and that the polygon moves against (a closing door and a wall)
 * leaves the polygon by its nearest face that is clear: the door passes over it. In a corner of
 * shapes that move as one (the floor and wall of a turning L, one body or two) it is pushed out
 * of each in turn, and stays in the corner.
 *
 * Determinism. The same calls with the same arguments in the same order (world creation,
 * bodies and shapes made and destroyed, setters, steps, and the queries, the mover and
 * rc_world_predict in between) give bit-identical results: every body's state, every event
 * and every query answer (ids included when the worlds were given the same non-zero
 * rc_world_def.id_salt; with the default salt, taken from the world's address and time, the
 * generations of ids differ from run to run and everything else is the same), whatever the compiler (GCC or Clang), its optimisation level and
 * instruction set extensions (-O0 to -O3, -march=native with FMA), the sanitizers, and the
 * allocator and the addresses it hands out, and whether the processor has AVX or AVX-512 (the
 * contact solver then runs eight or sixteen contacts at a time instead of four, with the same
 * operations per contact); on x86-64 (SSE2 floating point) and on aarch64
 * (NEON), the two giving the same bits as each other, with the library built as its CMake
 * build builds it (-ffp-contract=off); whatever the task system (none, or any number of
 * workers taking the ranges in any order). This is what lockstep networking and replays rest
 * on. tests/test_determinism.c checks it (a busy scene of 3,000 steps hashed into one
 * committed value) and .ci/determinism (make determinism) builds it seven ways and compares,
 * one of them for aarch64 (gcc's cross compiler, run under qemu-user).
 * It holds because the library uses only correctly rounded IEEE operations (+ - * /, sqrt,
 * conversions) and exact ones (floor, fmod, nextafter...): no sinf, cosf, atan2f or hypot,
 * whose last bits differ between C libraries (rc_rot_from_angle is its own), no x87 excess
 * precision (SSE2), no contraction into fused multiply-adds (-ffp-contract=off), no order that
 * depends on addresses or on qsort's handling of ties.
 * Not promised: the same bits on other architectures (32-bit x86 with x87 excess precision
 * would need -msse2 -mfpmath=sse; 32-bit ARM and WASM would need checking as aarch64 is: their
 * float operations are IEEE, but nothing runs there yet) or other compilers (MSVC); with the
 * library's sources compiled by other rules (-ffast-math, -ffp-contract=fast, -Ofast, or
 * any flags that let the compiler reassociate or contract); from one version of ricochet to
 * another; after calls in another order (creating the same bodies in another order numbers
 * them differently, and pairs and events follow the numbering). */
RC_API bool rc_world_step(rc_world *world, float dt);

RC_API bool rc_world_set_gravity(rc_world *world, rc_vec2 gravity);
RC_API rc_vec2 rc_world_gravity(const rc_world *world);

/* Counters for the game's overlay and for tests. */
typedef struct rc_world_counters {
    int32_t bodies, shapes, contacts, touching_contacts;
    int32_t awake_bodies;
    int32_t broadphase_proxies, broadphase_cells; /* of both grids: the level's, the others' */
    float cell_size;     /* level-0 cell size in use: the level's grid's (the other's while the
                            level has no shapes) */
    size_t bytes;        /* memory the world holds: what its allocator handed out and has not had
                            back, the world's own record included */
    int32_t steps;       /* steps taken */
    int32_t joints;      /* live joints (joint.h) */
} rc_world_counters;

RC_API rc_world_counters rc_world_get_counters(const rc_world *world);

/* ---- bodies --------------------------------------------------------------------------------- */

/* Which shapes may touch: A and B collide when (A.category & B.mask) and (B.category &
 * A.mask) are both non-zero, unless they share a non-zero group: then a positive group always
 * collides and a negative group never does. Shapes of one body never collide. */
typedef struct rc_filter {
    uint32_t category_bits; /* default 1 */
    uint32_t mask_bits;     /* default all */
    int32_t group_index;    /* default 0 */
} rc_filter;

RC_API rc_filter rc_default_filter(void);

typedef enum rc_body_type {
    RC_STATIC,    /* never moves by itself; zero velocity */
    RC_KINEMATIC, /* moves by its velocity only, pushes and is not pushed */
    RC_DYNAMIC,   /* moves by its velocity under gravity; has mass */
} rc_body_type;

typedef struct rc_body_def {
    rc_body_type type;        /* default RC_STATIC */
    rc_vec2 position;         /* the body origin in the world */
    float angle;              /* radians */
    rc_vec2 linear_velocity;  /* of the centre of mass, units/s */
    float angular_velocity;   /* rad/s */
    float linear_damping;     /* 1/s, >= 0; velocity is scaled by 1 / (1 + dt * damping) each step */
    float angular_damping;    /* 1/s, >= 0 */
    float gravity_scale;      /* default 1 */
    bool bullet;              /* swept every step against everything that is not a bullet; a bullet
                                 carries no solid shape (a point) or one solid circle */
    int32_t max_bounces;      /* bounces per step of a swept body; 0 makes it stop at its first hit; default 8 */
    int32_t bounce_budget;    /* bounces a swept body may make in its life (a ricochet budget); once they
                                 are made it stops dead at its next hit, spent; -1 (default): no limit */
    bool enable_response;     /* default true; false: a dynamic body that is never swept nor pushed,
                                 whose contacts are only reported (detection only) */
    float point_mass;         /* mass of a dynamic body whose shapes give it none (a point bullet); default 1;
                                 from FLT_MIN (its inverse a float) to RC_MAX_MASS */
    rc_filter point_filter;   /* what a point bullet (no solid shape) hits; default rc_default_filter() */
    bool awake;               /* default true */
    bool enable_sleep;        /* default true */
    bool fixed_rotation;      /* no rotation from contacts */
    void *user_data;
} rc_body_def;

RC_API rc_body_def rc_body_default_def(void);

/* A new body, or the null id when def is bad (unknown type, non-finite values, a velocity above
 * the world's speed limits, negative damping or bounce limit, a bounce budget below -1, a point
 * mass below FLT_MIN) or memory runs out. */
RC_API rc_body_id rc_body_create(rc_world *world, const rc_body_def *def);

/* Destroys the body and all its shapes; their contacts end (with end events). */
RC_API void rc_body_destroy(rc_world *world, rc_body_id body);

/* True when the id names a live body of this world. Never records an error. */
RC_API bool rc_body_is_valid(const rc_world *world, rc_body_id body);

RC_API rc_body_type rc_body_get_type(const rc_world *world, rc_body_id body);
RC_API rc_vec2 rc_body_position(const rc_world *world, rc_body_id body);
RC_API float rc_body_angle(const rc_world *world, rc_body_id body);
RC_API rc_transform rc_body_transform(const rc_world *world, rc_body_id body);
RC_API rc_vec2 rc_body_linear_velocity(const rc_world *world, rc_body_id body);
RC_API float rc_body_angular_velocity(const rc_world *world, rc_body_id body);
RC_API float rc_body_mass(const rc_world *world, rc_body_id body);
RC_API float rc_body_rotational_inertia(const rc_world *world, rc_body_id body); /* about the centre of mass */
RC_API rc_vec2 rc_body_world_center(const rc_world *world, rc_body_id body);     /* centre of mass in the world */
RC_API float rc_body_gravity_scale(const rc_world *world, rc_body_id body);
RC_API float rc_body_linear_damping(const rc_world *world, rc_body_id body);
RC_API float rc_body_angular_damping(const rc_world *world, rc_body_id body);
RC_API bool rc_body_is_bullet(const rc_world *world, rc_body_id body);
RC_API int32_t rc_body_max_bounces(const rc_world *world, rc_body_id body);
/* The bounces the body may still make in its life (rc_body_def.bounce_budget less those it has
 * made): -1 for no limit; 0 when it is spent (it stops dead at its next hit). 0 for a bad id. */
RC_API int32_t rc_body_bounces_left(const rc_world *world, rc_body_id body);
RC_API bool rc_body_response_enabled(const rc_world *world, rc_body_id body);
RC_API rc_filter rc_body_point_filter(const rc_world *world, rc_body_id body);
/* How the step moves this body: swept as a point or a circle, or moved by its velocity only. */
typedef enum rc_body_motion { RC_MOTION_FREE, RC_MOTION_SWEPT_POINT, RC_MOTION_SWEPT_CIRCLE } rc_body_motion;
RC_API rc_body_motion rc_body_get_motion(const rc_world *world, rc_body_id body);
RC_API bool rc_body_is_awake(const rc_world *world, rc_body_id body);
RC_API void *rc_body_user_data(const rc_world *world, rc_body_id body);
/* Fills ids with up to capacity shape ids of the body; returns how many the body has (-1 on
 * a bad id or a NULL ids with capacity > 0). */
RC_API int32_t rc_body_shapes(const rc_world *world, rc_body_id body, rc_shape_id *ids, int32_t capacity);

/* Setters: false on a bad id or value, nothing changed. Moving a body (transform) updates its
 * shapes and the broadphase at once and wakes it, and the sleeping bodies that touched it with
 * their islands (moved away, it leaves nothing asleep in the air); it is a teleport, not a
 * sweep. Velocities above the world's speed limits are refused. A dynamic body's shapes must
 * give it a mass of at most RC_MAX_MASS and a rotational inertia of at most
 * RC_MAX_ROTATIONAL_INERTIA, and each of them with a density must weigh something (density times
 * area at least FLT_MIN: a polygon 1e-30 across has no area in float): making a body dynamic,
 * adding a shape to it, or changing a shape's density or geometry is refused when they would
 * not. */
RC_API bool rc_body_set_transform(rc_world *world, rc_body_id body, rc_vec2 position, float angle);
/* A velocity other than zero wakes the body; a kinematic body set moving also wakes the sleeping
 * bodies it touches, with what they touch (a crate asleep on a platform rides it when it starts).
 * False with "out of memory" (nothing changed) when the room for that walk cannot be had. */
RC_API bool rc_body_set_linear_velocity(rc_world *world, rc_body_id body, rc_vec2 velocity);
RC_API bool rc_body_set_angular_velocity(rc_world *world, rc_body_id body, float velocity);
RC_API bool rc_body_set_type(rc_world *world, rc_body_id body, rc_body_type type);
RC_API bool rc_body_set_gravity_scale(rc_world *world, rc_body_id body, float scale);
RC_API bool rc_body_set_linear_damping(rc_world *world, rc_body_id body, float damping);
RC_API bool rc_body_set_angular_damping(rc_world *world, rc_body_id body, float damping);
RC_API bool rc_body_set_bullet(rc_world *world, rc_body_id body, bool bullet);
RC_API bool rc_body_set_max_bounces(rc_world *world, rc_body_id body, int32_t max_bounces);
/* Sets how many bounces the body may still make in its life (-1: no limit; 0: spent). False,
 * with the body unchanged, below -1. */
RC_API bool rc_body_set_bounces_left(rc_world *world, rc_body_id body, int32_t bounces_left);
RC_API bool rc_body_set_enable_response(rc_world *world, rc_body_id body, bool enable);
RC_API bool rc_body_set_point_filter(rc_world *world, rc_body_id body, rc_filter filter);
/* Wakes a body or puts it to sleep, with its island: a dynamic body and every dynamic body
 * reached from it through touching solid contacts and joints wake or sleep together, as the
 * step puts them to sleep (a body asleep has no velocity; one put to sleep on a pile that still
 * falls stays where it is until something wakes it). A kinematic body wakes or sleeps alone
 * (asleep, it stops). Asking a static body to sleep does nothing; to wake, it is refused. False,
 * with nothing changed, when out of memory (the walk over the island takes the world's island
 * scratch). */
RC_API bool rc_body_set_awake(rc_world *world, rc_body_id body, bool awake);
RC_API bool rc_body_set_user_data(rc_world *world, rc_body_id body, void *user_data);
/* An impulse (mass * velocity) at a world point; wakes the body. Dynamic bodies only. The
 * velocities it gives are held to the world's speed limits. */
RC_API bool rc_body_apply_linear_impulse(rc_world *world, rc_body_id body, rc_vec2 impulse, rc_vec2 point);
/* An angular impulse (rotational inertia * rad/s); wakes the body. Dynamic bodies only. */
RC_API bool rc_body_apply_angular_impulse(rc_world *world, rc_body_id body, float impulse);
/* A force (mass * units/s^2) at a world point, or at the centre of mass, and a torque: they act
 * over the next step (on a swept body as gravity does, bending its path) and are then used up,
 * so a steady push is applied every step. They add up until the step; wake the body. Dynamic
 * bodies only; refused when a value is not finite or the sums leave float range. */
RC_API bool rc_body_apply_force(rc_world *world, rc_body_id body, rc_vec2 force, rc_vec2 point);
RC_API bool rc_body_apply_force_to_center(rc_world *world, rc_body_id body, rc_vec2 force);
RC_API bool rc_body_apply_torque(rc_world *world, rc_body_id body, float torque);

/* A body's mass, centre of mass (in the body frame) and rotational inertia about it, and the
 * area of its solid shapes. */
RC_API rc_mass_data rc_body_mass_data(const rc_world *world, rc_body_id body);
/* Set a dynamic body's mass data instead of the one its shapes give (area is ignored). It
 * holds until the body's shapes or type change, which compute it from the shapes again. The
 * centre of mass moves with its velocity adjusted so that the body's motion is unchanged.
 * Refused: a mass outside [FLT_MIN, RC_MAX_MASS], a rotational inertia that is negative, not
 * finite or above RC_MAX_ROTATIONAL_INERTIA (0: the body does not turn), a centre that is not
 * finite, beyond RC_BODY_REACH of the body's position in its frame, or beyond RC_WORLD_LIMIT in
 * the world. */
RC_API bool rc_body_set_mass_data(rc_world *world, rc_body_id body, rc_mass_data data);

/* ---- shapes --------------------------------------------------------------------------------- */


typedef struct rc_shape_def {
    rc_vec2 offset;           /* base transform in the body frame: offset + R(angle) * (scale.x * x, scale.y * y) */
    float angle;
    rc_vec2 scale;            /* default (1, 1); a circle needs |scale.x| == |scale.y| */
    float restitution;        /* bounciness, 0..1 usually; default 0 */
    float friction;           /* default 0.6 */
    float rolling_resistance; /* slows a rolling circle: the torque against its rolling is at most
                                 rolling_resistance * radius * the normal force; default 0.2 */
    float density;            /* mass per unit area; default 1 */
    bool is_sensor;           /* detects overlap, never blocks; reported by sensor events */
    bool enable_contact_events;  /* default true */
    bool enable_sensor_events;   /* default true */
    bool one_sided;           /* chains: a wall blocks only what is on its free side (see rc_shape_create_chain) */
    bool absorbs_projectiles; /* a swept body (a bullet, a grenade) that strikes it stops dead there, spent
                                 (an enemy, a sandbag): its impact event says so and it has no bounces left;
                                 default false */
    bool enable_pre_solve_events; /* its contacts and the impacts on it ask the world's pre-solve
                                     callback first (rc_world_set_pre_solve_callback); default false */
    rc_filter filter;
    void *user_data;
} rc_shape_def;

RC_API rc_shape_def rc_shape_default_def(void);

typedef enum rc_shape_type {
    RC_SHAPE_TYPE_CIRCLE,
    RC_SHAPE_TYPE_POLYGON,
    RC_SHAPE_TYPE_CHAIN,   /* a level outline: the id rc_shape_create_chain returns */
    RC_SHAPE_TYPE_SEGMENT, /* one wall of a chain, a shape of its own */
    RC_SHAPE_TYPE_CAPSULE,
} rc_shape_type;

/* A circle of the given radius centred on the base transform's offset; its radius scales by
 * |scale.x|. The null id on a bad body, def or radius (not finite and positive). Adding a
 * shape to a dynamic body recomputes its mass: each shape adds its own (its mass, moments and
 * inertia summed in double about the body origin), so a body of n shapes is built in time
 * proportional to n, and shapes far from the origin keep their inertia exact to float. */
RC_API rc_shape_id rc_shape_create_circle(rc_world *world, rc_body_id body, const rc_shape_def *def, float radius);

/* A convex polygon from count points in either winding, validated and cleaned as
 * rc_make_polygon does; the message says why input was refused. */
RC_API rc_shape_id rc_shape_create_polygon(rc_world *world, rc_body_id body, const rc_shape_def *def,
                                           const rc_vec2 *points, int count);

/* A box of the given half extents centred on the base transform's offset. */
RC_API rc_shape_id rc_shape_create_box(rc_world *world, rc_body_id body, const rc_shape_def *def, float half_width,
                                       float half_height);

/* A capsule: the points within radius of the segment center1..center2 (body frame, under the
 * def's base transform, whose scale must be uniform: |scale.x| == |scale.y|; the radius scales
 * by it). For characters, barrels, limbs: it rolls on its round ends and rests on its sides.
 * The null id on a bad body or def, centres that are not finite or that coincide (make a circle
 * then), or a radius that is not finite and positive. */
RC_API rc_shape_id rc_shape_create_capsule(rc_world *world, rc_body_id body, const rc_shape_def *def, rc_vec2 center1,
                                           rc_vec2 center2, float radius);

/* A level outline: the walls from points[0] to points[1], ..., to points[count - 1], and with
 * loop back to points[0]. Any outline works: concave, with collinear or very short walls, as
 * many points as the level has (up to 2^24). Consecutive repeats of a point are welded (and a
 * loop's closing repeat of its first point). The points are in the body frame under the def's
 * base transform (any non-zero scale). A chain lives on a static or kinematic body (it has no
 * mass) and is never a sensor.
 *
 * Each wall (segment) is a shape of its own, type RC_SHAPE_TYPE_SEGMENT, with its own id and
 * its own place in the broadphase: ray casts, sweeps, impacts, contacts and overlap queries
 * report the segment that was struck. A long wall of a static body (over two piece lengths: four
 * times def.cell_size, or 1,000 linear_slop when the world chooses its cells, 5 units by
 * default) is in the broadphase as the boxes of its pieces (of that length, or 256 equal pieces
 * of a wall longer than 256 of them), so that a long slanted
 * wall is not in contact with, nor tested by, everything inside its bounding box: a body comes
 * into contact with it when its box meets a piece's, and rc_world_overlap_aabb finds it when
 * the query box meets a piece's. It is still one shape: one id, one contact per body, one hit
 * per cast; rc_shape_chain gives its chain. The segments take the
 * def's materials, filter and flags; a setter called on the chain sets them on every segment,
 * one called on a segment sets that segment only. rc_shape_destroy takes the chain (not one of
 * its segments) and destroys it all; so does destroying the body.
 *
 * Walls block from both sides unless def->one_sided: then a wall blocks only what is on its
 * free side. A loop's free side is its inside whatever its winding (a sector: the walker and
 * the grenades are inside); an open chain's free side is the left of the direction from one
 * point to the next, as placed in the world. A body behind a one-sided wall passes through it.
 *
 * Returns the chain's id, or the null id (with the reason in the last error) on a bad body
 * (dynamic), def (a sensor) or points (NULL, too few distinct points, not finite, neighbours
 * that land on the same float point once placed, a loop with no area), or out of memory. */
RC_API rc_shape_id rc_shape_create_chain(rc_world *world, rc_body_id body, const rc_shape_def *def,
                                         const rc_vec2 *points, int count, bool loop);

/* Destroys one shape; its contacts end. A chain goes with all its segments; a segment alone
 * is refused (destroy its chain). */
RC_API void rc_shape_destroy(rc_world *world, rc_shape_id shape);

/* True when the id names a live shape of this world. Never records an error. */
RC_API bool rc_shape_is_valid(const rc_world *world, rc_shape_id shape);

RC_API rc_body_id rc_shape_body(const rc_world *world, rc_shape_id shape);
RC_API rc_shape_type rc_shape_get_type(const rc_world *world, rc_shape_id shape);
RC_API rc_aabb rc_shape_aabb(const rc_world *world, rc_shape_id shape);
/* The shape placed in the world: false on a bad id or a shape of another type. */
RC_API bool rc_shape_world_circle(const rc_world *world, rc_shape_id shape, rc_circle *circle);
RC_API bool rc_shape_world_polygon(const rc_world *world, rc_shape_id shape, rc_polygon *polygon);
RC_API bool rc_shape_world_capsule(const rc_world *world, rc_shape_id shape, rc_capsule *capsule);
RC_API float rc_shape_restitution(const rc_world *world, rc_shape_id shape);
RC_API float rc_shape_friction(const rc_world *world, rc_shape_id shape);
RC_API float rc_shape_density(const rc_world *world, rc_shape_id shape);
RC_API rc_filter rc_shape_filter(const rc_world *world, rc_shape_id shape);
RC_API bool rc_shape_is_sensor(const rc_world *world, rc_shape_id shape);
/* A chain (or one of its walls) made with def.one_sided: false for other shapes. */
RC_API bool rc_shape_is_one_sided(const rc_world *world, rc_shape_id shape);
RC_API bool rc_shape_absorbs_projectiles(const rc_world *world, rc_shape_id shape);
/* Makes a shape (a chain: all its walls) absorb projectiles or not (rc_shape_def.absorbs_projectiles). */
RC_API bool rc_shape_set_absorbs_projectiles(rc_world *world, rc_shape_id shape, bool absorbs);
RC_API void *rc_shape_user_data(const rc_world *world, rc_shape_id shape);
RC_API bool rc_shape_pre_solve_events(const rc_world *world, rc_shape_id shape);
/* Makes a shape (a chain: all its walls) ask the pre-solve callback or not
 * (rc_shape_def.enable_pre_solve_events). */
RC_API bool rc_shape_set_pre_solve_events(rc_world *world, rc_shape_id shape, bool enable);

/* Is the point inside the shape? Circles and polygons: inside or on the boundary. A looped
 * chain counts as its area, by the crossing rule (a point exactly on a wall may fall either
 * way); an open chain and a segment have no inside (false). False with an error on a bad id
 * or a point that is not finite. */
RC_API bool rc_shape_test_point(const rc_world *world, rc_shape_id shape, rc_vec2 p);

/* The looped chains (sectors) whose area holds the point, by rc_shape_test_point's rule:
 * fills up to capacity ids, returns how many there are (nested sectors all count), -1 on bad
 * input. Visits every loop's box, then the walls of those that contain the point. */
RC_API int32_t rc_world_sectors_at(const rc_world *world, rc_vec2 point, rc_shape_id *ids, int32_t capacity);

/* A segment's ends in the world, in its chain's order: false (with an error) for other shapes. */
RC_API bool rc_shape_world_segment(const rc_world *world, rc_shape_id segment, rc_vec2 *a, rc_vec2 *b);
/* The chain of a segment (or the chain itself); the null id with an error for other shapes. */
RC_API rc_shape_id rc_shape_chain(const rc_world *world, rc_shape_id shape);
/* A chain's points placed in the world after welding: fills up to capacity, returns the count,
 * -1 on a bad id or arguments. */
RC_API int32_t rc_shape_chain_points(const rc_world *world, rc_shape_id chain, rc_vec2 *points, int32_t capacity);
/* A chain's segment ids, in order (segment k runs from point k to point k + 1): fills up to
 * capacity, returns the count, -1 on a bad id or arguments. */
RC_API int32_t rc_shape_chain_segments(const rc_world *world, rc_shape_id chain, rc_shape_id *ids, int32_t capacity);
RC_API bool rc_shape_chain_is_loop(const rc_world *world, rc_shape_id chain);

/* Setters: false on a bad id or value, nothing changed. A chain's base transform is fixed when
 * it is made (refused here). A new base transform, restitution, friction, density or filter
 * wakes the sleeping bodies that touch the shape, with their islands, and the shape's body
 * (asleep: with its island): a crate asleep on a slope made slippery slides, one asleep on a
 * platform whose filter now lets it through falls. A material set to the value it has wakes
 * nothing (a game may set its materials every frame and still let its bodies sleep); a base
 * transform or a filter always wakes the shape's own body. */
RC_API bool rc_shape_set_base_transform(rc_world *world, rc_shape_id shape, rc_vec2 offset, float angle, rc_vec2 scale);
RC_API bool rc_shape_set_restitution(rc_world *world, rc_shape_id shape, float restitution);
RC_API bool rc_shape_set_friction(rc_world *world, rc_shape_id shape, float friction);
RC_API bool rc_shape_set_density(rc_world *world, rc_shape_id shape, float density);
RC_API bool rc_shape_set_filter(rc_world *world, rc_shape_id shape, rc_filter filter);
RC_API bool rc_shape_set_user_data(rc_world *world, rc_shape_id shape, void *user_data);

/* A ray against this one shape (see geometry.h for the hit rules); shape and body are set. */
RC_API bool rc_shape_cast_ray(const rc_world *world, rc_shape_id shape, rc_vec2 origin, rc_vec2 translation,
                              rc_ray_hit *hit);

RC_EXTERN_C_END

/* the queries and the trajectory preview (query.h), the events, the contacts touching now and the
 * pre-solve callback (events.h): declared in headers of their own, part of the world's API */
#include "query.h"
#include "events.h"

#endif
