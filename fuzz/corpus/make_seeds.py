#!/usr/bin/env python3
"""Write the handcrafted seeds of fuzz/corpus/<target>/seed-*: one or more inputs per operation
of each target, in the byte formats of fuzz_input.h, fuzz_geometry.c and fuzz_world.c.
Run from anywhere: python3 fuzz/corpus/make_seeds.py (the minimized inputs found by fuzzing,
min-*, are kept beside them and are not generated)."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def lat(v):
    """fz_float / fz_small on the lattice: selector 0x50 (fz_float) then v * 16 as int8.
    (fz_small reads the same two bytes as v * 8: callers that use fz_small pass v / 2.)"""
    return [0x50, int(round(v * 16)) & 0xFF]


def vec(x, y):
    return lat(x) + lat(y)


def write(target, name, data):
    d = os.path.join(HERE, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(bytes(data))


# ---- fuzz_geometry: op byte (mod 12), then the op's arguments ----
G = "fuzz_geometry"
write(G, "ray_segment", [0] + vec(-2, 0.5) + vec(4, 0) + vec(0, -1) + vec(0, 1))
write(G, "ray_polygon", [1, 4] + vec(0, 0) + vec(1, 0) + vec(1, 1) + vec(0, 1) + vec(-2, 0.5) + vec(4, 0))
write(G, "points_clip", [2, 4] + vec(0, 0) + vec(1, 0) + vec(1, 1) + vec(0, 1) + vec(0.5, 0.5) + vec(-1, 0.5) + vec(2, 0.5))
write(G, "convex_box", [3, 1] + lat(1) + lat(0.5) + vec(-3, 0.25) + vec(3, 0.25))
write(G, "convex_moved", [3, 4 + 2, 6] + lat(1) + lat(0.5) + vec(2, 1) + lat(0.5) + vec(-3, 1) + vec(6, 0.25))
write(G, "make_polygon", [4, 5] + vec(0, 0) + vec(1, 0) + vec(1, 1) + vec(0.5, 1.5) + vec(0, 1))
write(G, "make_polygon_cw_collinear", [4, 5] + vec(0, 0) + vec(0, 1) + vec(1, 1) + vec(1, 0.5) + vec(1, 0))
write(G, "box_regular", [5] + lat(1) + lat(2) + [6] + lat(1.5) + lat(0.25))
write(G, "rot", [6] + lat(1.5))
write(G, "nearest", [7] + vec(0, 0) + vec(4, 0) + vec(1, 3))
write(G, "circle", [8] + vec(1, 1) + lat(2) + vec(-4, 1) + vec(8, 0) + lat(0.5) + lat(1))
write(G, "shapes", [9, 1] + lat(1) + lat(1) + [1] + lat(0.5) + lat(2) + vec(0, 1.5) + lat(1) + vec(0.5, 0)
      + lat(1) + vec(-2, -1) + vec(2, -1) + vec(-3, 0) + vec(6, 0) + lat(0.25))
write(G, "normalize", [10] + vec(3, 4))
write(G, "segment_aabb", [11] + vec(3, -4) + vec(-1, 2))


# ---- fuzz_world: world flags, then ops (selector mod 12; 252..255: the joint ops, below) ----
W = "fuzz_world"


def small(v):
    """draw_num: selector < 224 (fz_small), then fz_small: selector >= 16, then v * 8 as int8."""
    return [0x20, 0x20, int(round(v * 8)) & 0xFF]


def wvec(x, y):
    return small(x) + small(y)


def body(btype, x, y, vx=0.0, vy=0.0, flags=0):
    # op 0: flags, type, position, angle, velocity, angular velocity
    return [0, flags, btype] + wvec(x, y) + small(0) + wvec(vx, vy) + small(0)


def box(body_sel, hw, hh):
    # op 2, kind 1 (box), body, shape def flags 0, half extents
    return [2, 1, body_sel, 0] + small(hw) + small(hh)


def circle(body_sel, r, flags=0):
    return [2, 0, body_sel, flags] + small(r)


def polygon(body_sel, pts):
    out = [2, 2, body_sel, 0, len(pts) + 2]
    for x, y in pts:
        out += wvec(x, y)
    return out


def chain(body_sel, pts, loop):
    # kind 3; points on the small integer grid (selector bit 0x40 clear)
    sel = len(pts) | (0x80 if loop else 0)
    out = [2, 3, body_sel, 0, sel]
    for x, y in pts:
        out += [x, y]
    return out


scene = (body(0, 0, 0) + box(0, 8, 0.5)                           # ground: body 0, shape 0
         + body(2, 0, 3, 1, 0) + circle(1, 0.25)                  # a grenade: body 1
         + body(2, -3, 2, 20, 0, flags=2) )                        # a point bullet: body 2
write(W, "scene_step", [0] + scene + [7, 0x30])                    # 4 steps of 1/60
write(W, "chain_sector", [0] + body(0, 0, 0) + chain(0, [(0, 0), (12, 0), (12, 8), (6, 11), (0, 8)], True)
      + body(2, 4, 4) + circle(1, 0.5) + [7, 0x31, 16] + [11, 1, 3, 0, 0] + wvec(3, 3) + [4])
write(W, "polygon_dynamic", [0] + body(0, 0, 0) + box(0, 4, 0.5) + body(2, 0, 1, 0, -1)
      + polygon(1, [(-0.5, 0), (0.5, 0), (0, 0.75)]) + [7, 0x10] + [11, 1, 5, 0, 0] + wvec(0, 0) + [8])
write(W, "destroy", [0] + scene + [4, 1, 1] + [4, 0, 0] + [7, 0] + [4, 1, 1])
write(W, "body_setters", [0] + scene + sum(([5, k, 1] + wvec(1, 0.5) + small(0.25) for k in range(14)), []) + [7, 0])
write(W, "shape_setters", [0] + scene + sum(([6, k, 0] + wvec(0.5, 0) + small(0.5) + wvec(1, 1) for k in range(6)), [])
      + [7, 0])
write(W, "queries", [0] + scene + sum(([8, k] + wvec(-6, 0.75) + wvec(12, -0.5) + [0] + small(0.25) + [0, 3, 1, 0]
                                       for k in range(10)), []))
write(W, "predict", [0] + scene + [9, 0] + wvec(-2, 3) + wvec(4, 2) + small(0.25) + [2])
write(W, "mover", [0] + scene + [10, 0] + wvec(-1, 1) + small(0.5) + wvec(2, -1.5) + [10, 8] + wvec(-1, 1) + small(0.5)
      + wvec(0, -3))
write(W, "getters", [0] + scene + sum(([11, 1, k, 0, 1] + wvec(0, 0) + [2] for k in range(8)), []))
write(W, "alloc_failures", [0] + [11, 0, 1, 2] + body(0, 0, 0) + [11, 0, 2] + box(0, 1, 1) + [11, 0, 1, 0] + box(0, 1, 1)
      + [11, 0, 3] + [11, 0, 0] + wvec(0, -5) + [7, 0])
write(W, "stale_and_forged_ids", [0] + scene + [4, 1, 0] + [5, 1, 0] + wvec(1, 1) + [5, 1, 210, 1, 0, 0, 0, 7, 0, 0, 0]
      + wvec(1, 1) + [6, 1, 240] + small(1) + [4, 0, 215, 0, 0, 0, 0, 0, 0, 0, 0])
write(W, "world_def", [0x1F] + wvec(0, -9.75) + small(0.5) + small(0.125) + small(1) + [4, 4, 8] + scene + [7, 0x21, 40])


# ---- fuzz_world: joints (selectors 252 and 253 make one, 254 sets, 255 destroys or reads) ----
K1000 = [0x20, 10]      # draw_num / draw_param: fz_small's special 1000
NAN = [0xE0, 0xE8]      # draw_param: selector >= 224 passes to draw_num, whose selector 232 is NaN
INF = [0xE9]            # draw_num selector 233: infinity


def joint(kind, flags, a, b=None, la=(0, 0), lb=(0, 0), fail=None):
    """op_create_joint: kind (type = kind % 5, 120..127: NULL def), flags (2: anchors, 4: limit,
    8: motor, 16: spring, 32: collide_connected; 1 without 128: the same body twice, 128 without
    1: the k-th allocation fails; 64 without 32: limits as drawn, not put in order (a mouse
    joint: the target in the world, not from the body)), the bodies (a selector below 224: a tracked body; a list: 224 or more, then
    draw_body's selector), then the type's values (appended by the caller)."""
    out = [252, kind, flags] + (a if isinstance(a, list) else [a])
    if flags & 0x81 != 0x01:
        out += b if isinstance(b, list) else [b]
    if flags & 2:
        out += wvec(*la) + wvec(*lb)
    if flags & 0x81 == 0x80:
        out.append(fail)
    return out


def revolute(lower, upper, speed, torque, hertz, damping):
    return small(lower) + small(upper) + small(speed) + torque + small(hertz) + small(damping)


def distance(length, limits, hertz, damping, force, speed):
    out = small(length) + [1 if limits else 0]
    if limits:
        out += small(limits[0]) + small(limits[1])
    return out + small(hertz) + small(damping) + force + small(speed)


def prismatic(axis, lower, upper, speed, force, hertz, damping):
    out = [1 if axis else 0] + (wvec(*axis) if axis else [])
    return out + small(lower) + small(upper) + small(speed) + force + small(hertz) + small(damping)


def jset(what, joint_sel, flags, *values):
    """op_joint_set: what (0 revolute limits, 1 motor, 2 spring, 3 distance length, 4 limits,
    5 spring, 6 motor, 7 prismatic limits, 8 motor, 9 spring, 10 weld springs, 11 mouse target,
    12 user data), the joint, flags (1: enable; 2 without 4: limits as drawn, the target in the
    world)."""
    out = [254, what, joint_sel, flags]
    for v in values:
        out += v if isinstance(v, list) else small(v)
    return out


def jget(joint_sel, k):
    # op 255, a byte not a multiple of 4: the getters, then the typed getter k (0..8)
    return [255, 1, joint_sel, k]


def jdestroy(joint_sel, fail=False):
    return [255, 0, 8 if fail else 0, joint_sel]


jscene = (body(0, 0, 0) + box(0, 8, 0.5)                            # body 0: the ground
          + body(2, 0, 4) + box(1, 0.5, 0.25)                       # body 1
          + body(2, 2, 4) + box(2, 0.5, 0.25)                       # body 2
          + body(2, 4, 4) + circle(3, 0.5))                         # body 3
steps4 = [7, 0x30]
write(W, "joint_revolute", [0] + jscene
      + joint(0, 2 | 4 | 8 | 16, 0, 1, (0, 6), (0, 2)) + revolute(-0.5, 0.5, 1, K1000, 2, 0.5) + steps4
      + jget(0, 0) + jget(0, 1) + jget(0, 2)
      + jset(0, 0, 1, -1, 1) + jset(1, 0, 1, -2, 50) + jset(2, 0, 1, 4, 0.25) + steps4 + jget(0, 0))
write(W, "joint_distance", [0] + jscene
      + joint(1, 4 | 8 | 16, 1, 2) + distance(2, (1, 3), 4, 0.7, K1000, 0.5) + steps4 + jget(0, 3)
      + jset(3, 0, 0, 3) + jset(4, 0, 1, 0.5, 4) + jset(5, 0, 0, 0, 0) + jset(6, 0, 1, -1, 20) + steps4
      + joint(1, 0, 2, 3) + distance(1.5, None, 0, 0, small(0), 0) + steps4 + jget(1, 3))
write(W, "joint_prismatic", [0] + jscene
      + joint(2, 2 | 4 | 8 | 16, 0, 3, (4, 4), (0, 0)) + prismatic((1, 0.5), -2, 2, 1, K1000, 1, 0.5) + steps4
      + jget(0, 4) + jget(0, 5) + jset(7, 0, 1, -1, 1) + jset(8, 0, 1, -3, 100) + jset(9, 0, 0, 2, 1) + steps4)
write(W, "joint_weld", [0] + jscene
      + joint(3, 2 | 8 | 16, 1, 2, (1, 0), (-1, 0)) + [1] + small(0.25) + small(3) + small(0.7) + small(2) + small(1)
      + steps4 + jset(10, 0, 0, 0, 2, 0, 2) + steps4 + jget(0, 0))
write(W, "joint_mouse", [0] + jscene
      + joint(4, 0, 3, 3) + wvec(1, 1) + small(5) + small(0.7) + K1000 + steps4 + jget(0, 6)
      + jset(11, 0, 0, -1, 2) + steps4 + jset(11, 0, 2, 6, 6) + steps4 + jget(0, 7))
write(W, "joint_chain", [0] + jscene
      + joint(0, 2, 0, 1, (0, 6), (-0.5, 0)) + revolute(0, 0, 0, small(0), 0, 0)
      + joint(0, 2, 1, 2, (0.5, 0), (-0.5, 0)) + revolute(0, 0, 0, small(0), 0, 0)
      + joint(1, 2 | 4 | 16, 2, 3, (0.5, 0), (0, 0)) + distance(1, (0, 1.5), 0, 0, small(0), 0)
      + [7, 0x31, 64] * 6 + [5, 1, 2] + wvec(8, 0) + [7, 0x30] * 3)
write(W, "joint_destroy", [0] + jscene
      + joint(0, 0, 0, 1) + revolute(0, 0, 0, small(0), 0, 0)
      + joint(1, 0, 1, 2) + distance(2, None, 0, 0, small(0), 0)
      + joint(3, 0, 2, 3) + [0]
      + steps4 + jdestroy(0) + jdestroy(0) + jget(0, 0) + [4, 1, 2] + jget(1, 3) + jget(2, 0) + steps4
      + jdestroy(1, fail=True))
write(W, "joint_refused", [0] + jscene
      + joint(0, 1, 1) + revolute(0, 0, 0, small(0), 0, 0)                         # the same body twice
      + body(0, 5, 0) + joint(1, 0, 0, 4) + distance(1, None, 0, 0, small(0), 0)  # two static bodies
      + joint(0, 0, 0, 1) + small(0) + small(0) + small(0) + small(0) + NAN + small(0)  # NaN hertz
      + joint(1, 0, 1, 2) + small(0) + [0] + small(0) + small(0) + small(0) + small(0)  # length 0
      + joint(0, 64, 1, 2) + revolute(1, -1, 0, small(0), 0, 0)                   # lower above upper
      + joint(2, 0, 1, 2) + [1] + wvec(0, 0) + small(0) * 4 + small(0) + small(0)  # zero axis
      + joint(4, 0, 0, 0) + wvec(0, 0) + small(5) + small(1) + small(1)            # mouse on a static body
      + joint(4, 64, 3, 3) + INF + small(0) + small(5) + small(1) + small(1)       # target at infinity
      + joint(120, 0, 1, 2) + revolute(0, 0, 0, small(0), 0, 0)                  # NULL def
      + joint(0, 0, [224, 200], 1) + revolute(0, 0, 0, small(0), 0, 0)            # the twin's body
      + joint(3, 128, 1, 2, fail=1) + [0]                                          # out of memory
      + joint(3, 0, 1, 2) + [0]                                                    # a weld, to set
      + jset(0, 0, 1, 0, 1) + jset(10, 0, 0, NAN, 1, 1, 1) + jset(10, 200, 0, 1, 1, 1, 1)
      + jset(12, 0, 0) + [7] + jget(200, 0) + jget(226, 0) + jget(0, 6) + jdestroy(200) + steps4
      + [11, 0, 4])                                                               # NULL arguments
