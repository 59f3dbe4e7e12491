/**
 * Move sources of the program tests (package `demo` at 0x0), compiled offline by the tests.
 */

/** References into vectors and nested structs. */
export const REFS = `module demo::refs;

public struct Point has copy, drop, store { x: u64, y: u64 }
public struct Bag has copy, drop, store { items: vector<Point>, label: vector<u8> }
public struct Outer has copy, drop, store { bags: vector<Bag>, count: u64 }
public struct Counters has copy, drop { vals: vector<u64>, total: u64 }

public fun make(): Outer {
    Outer {
        bags: vector[
            Bag { items: vector[Point { x: 1, y: 2 }, Point { x: 3, y: 4 }], label: b"a" },
            Bag { items: vector[Point { x: 5, y: 6 }], label: b"b" },
        ],
        count: 2,
    }
}

fun set_x(p: &mut Point, v: u64) { p.x = v; }

/// Writes through &mut into fields of structs inside vectors inside a struct.
public fun deep_write(v: u64): (u64, u64, u64, u64, Outer) {
    let mut o = make();
    let p = &mut o.bags[0].items[1];
    p.x = v;
    p.y = p.y + 100;
    set_x(&mut o.bags[1].items[0], v + 1);
    let bag = &mut o.bags[1];
    bag.items.push_back(Point { x: 7, y: 8 });
    bag.label.push_back(33);
    o.count = o.count + 1;
    let r = &o.bags[0].items[1];
    (r.x, r.y, o.bags[1].items[0].x, o.bags[1].items.length(), o)
}

/// A reference kept in a local and used several times.
public fun reuse_ref(n: u64): Outer {
    let mut o = make();
    let items = &mut o.bags[0].items;
    let mut i = 0;
    while (i < n) {
        items.push_back(Point { x: i, y: i * i });
        let last = items.length() - 1;
        let q = &mut items[last];
        q.y = q.y + 1;
        i = i + 1;
    };
    items.swap(0, 1);
    o
}

public fun bump_all(n: u64): Counters {
    let mut c = Counters { vals: vector[10, 20, 30], total: 0 };
    let mut i = 0;
    let len = c.vals.length();
    while (i < len) {
        let e = &mut c.vals[i];
        *e = *e + n;
        let v = *e;
        c.total = c.total + v;
        i = i + 1;
    };
    c
}

public fun shuffle(): vector<Point> {
    let mut v = vector[Point { x: 1, y: 1 }, Point { x: 2, y: 2 }, Point { x: 3, y: 3 }, Point { x: 4, y: 4 }];
    v.swap(0, 3);
    let removed = v.remove(1);
    let last = v.swap_remove(0);
    v.push_back(Point { x: removed.x * 10 + last.x, y: 0 });
    v.reverse();
    v.insert(Point { x: 9, y: 9 }, 1);
    v
}

/// Copies are independent of the original.
public fun copies_are_independent(): (u64, u64, u64) {
    let mut o = make();
    let snapshot = copy o;
    o.bags[0].items[0].x = 99;
    let mut p = o.bags[1].items[0];
    p.x = 1000;
    (snapshot.bags[0].items[0].x, o.bags[1].items[0].x, o.bags[0].items[0].x + p.x)
}

public fun scale(p: &mut Point, k: u64) { p.x = p.x * k; p.y = p.y * k; }

public fun bump_in_place(o: &mut Outer, by: u64) {
    let b = &mut o.bags[0];
    b.items[0].y = b.items[0].y + by;
    b.label = b"zz";
    o.count = o.count * 10;
}

public fun rewrite_rows(): vector<vector<u8>> {
    let mut rows = vector[b"ab", b"cd", b""];
    let r = &mut rows[1];
    *r = b"xyz";
    rows[2].push_back(7);
    let first = &mut rows[0];
    first.append(b"!");
    rows
}

public fun swap_fields(p: &mut Point) {
    let x = &mut p.x;
    let old = *x;
    *x = p.y;
    p.y = old;
}
`;

/** Enums: match with and without fields, nested enums, enums in vectors, mutable match. */
export const ENUMS = `module demo::enums;

public enum Shape has copy, drop, store {
    Circle { r: u64 },
    Rect { w: u64, h: u64 },
    Empty,
}

public enum Wrapper has copy, drop, store {
    One(Shape),
    Two(Shape, Shape),
    Nothing,
}

public enum Maybe<T> has copy, drop, store {
    Just(T),
    Nothing,
}

public fun area(s: &Shape): u64 {
    match (s) {
        Shape::Circle { r } => 3 * *r * *r,
        Shape::Rect { w, h } => *w * *h,
        Shape::Empty => 0,
    }
}

public fun kind(s: Shape): u8 {
    match (s) {
        Shape::Circle { .. } => 10,
        Shape::Rect { .. } => 20,
        Shape::Empty => 30,
    }
}

public fun radius_or(s: Shape, d: u64): u64 {
    match (s) {
        Shape::Circle { r } => r,
        _ => d,
    }
}

public fun grow(s: &mut Shape, by: u64) {
    match (s) {
        Shape::Circle { r } => *r = *r + by,
        Shape::Rect { w, h } => { *w = *w + by; *h = *h * 2; },
        Shape::Empty => {},
    }
}

public fun classify(x: u64): Shape {
    if (x == 0) Shape::Empty
    else if (x % 2 == 0) Shape::Rect { w: x, h: x + 1 }
    else Shape::Circle { r: x }
}

public fun shapes(): vector<Shape> {
    vector[Shape::Circle { r: 2 }, Shape::Rect { w: 3, h: 4 }, Shape::Empty, Shape::Circle { r: 1 }]
}

public fun grow_all(by: u64): vector<Shape> {
    let mut v = shapes();
    let mut i = 0;
    while (i < v.length()) {
        grow(&mut v[i], by);
        i = i + 1;
    };
    v
}

public fun sum_areas(v: &vector<Shape>): u64 {
    let mut total = 0;
    let mut i = 0;
    while (i < v.length()) {
        total = total + area(&v[i]);
        i = i + 1;
    };
    total
}

public fun total_area(w: &Wrapper): u64 {
    match (w) {
        Wrapper::One(s) => area(s),
        Wrapper::Two(a, b) => area(a) + area(b),
        Wrapper::Nothing => 0,
    }
}

public fun nested_update(by: u64): Wrapper {
    let mut w = Wrapper::Two(Shape::Circle { r: 1 }, Shape::Rect { w: 1, h: 1 });
    match (&mut w) {
        Wrapper::Two(_, b) => grow(b, by),
        _ => {},
    };
    w
}

public fun inner_kind(w: Wrapper): u8 {
    match (w) {
        Wrapper::One(Shape::Circle { .. }) => 1,
        Wrapper::One(_) => 2,
        Wrapper::Two(Shape::Empty, Shape::Empty) => 3,
        Wrapper::Two(..) => 4,
        Wrapper::Nothing => 5,
    }
}

public fun unwrap_or<T: drop>(m: Maybe<T>, d: T): T {
    match (m) {
        Maybe::Just(x) => x,
        Maybe::Nothing => d,
    }
}

public fun morph(s: &mut Shape) {
    *s = Shape::Rect { w: 1, h: 2 };
}

public fun replace_in_vec(i: u64): vector<Shape> {
    let mut v = shapes();
    let r = &mut v[i];
    *r = Shape::Empty;
    v
}

public fun same(a: &vector<Shape>, b: &vector<Shape>): bool { a == b }

public fun maybe_first(v: &vector<u64>): Maybe<u64> {
    if (v.is_empty()) Maybe::Nothing else Maybe::Just(v[0])
}
`;

/** Generics: generic structs and functions, constraints, phantom types, nested instantiations. */
export const GENERICS = `module demo::generics;

use std::ascii::String;
use std::type_name;

public struct Box<T> has copy, drop, store { v: T }
public struct Pair<A, B> has copy, drop, store { a: A, b: B }
public struct Tagged<phantom T> has copy, drop, store { n: u64 }
public struct Money<phantom T> has store { value: u64 }
public struct USD has drop {}
public struct EUR has drop {}

public fun wrap<T: copy + drop>(x: T): Box<T> { Box { v: x } }
public fun unwrap<T>(b: Box<T>): T { let Box { v } = b; v }
public fun pair<A, B>(a: A, b: B): Pair<A, B> { Pair { a, b } }
public fun swap<A, B>(p: Pair<A, B>): Pair<B, A> { let Pair { a, b } = p; Pair { a: b, b: a } }
public fun dup<T: copy>(x: &T): vector<T> { vector[*x, *x] }

public fun deep<T: copy + drop>(x: T): Pair<Box<T>, vector<T>> { pair(wrap(x), dup(&x)) }

public fun nested(x: u64): Box<Pair<Box<u64>, vector<Box<u8>>>> {
    wrap(pair(wrap(x), vector[wrap((x % 256) as u8), wrap(7u8)]))
}

public fun count<T: copy + drop>(v: &vector<T>, x: &T): u64 {
    let mut n = 0;
    let mut i = 0;
    while (i < v.length()) {
        if (&v[i] == x) n = n + 1;
        i = i + 1;
    };
    n
}

public fun tagged<T>(n: u64): Tagged<T> { Tagged { n } }
public fun mint<T>(value: u64): Money<T> { Money { value } }
public fun merge<T>(a: Money<T>, b: Money<T>): Money<T> {
    let Money { value: x } = a;
    let Money { value: y } = b;
    Money { value: x + y }
}
public fun burn<T>(m: Money<T>): u64 { let Money { value } = m; value }

public fun name_of<T>(): String { type_name::with_defining_ids<T>().into_string() }

public fun names(): vector<String> {
    vector[name_of<Box<u8>>(), name_of<Pair<Tagged<USD>, vector<Money<EUR>>>>(), name_of<Money<Box<u64>>>()]
}

public fun total_usd(): u64 {
    let m = merge(mint<USD>(5), mint<USD>(7));
    burn(m)
}
`;

/** Recursion, unbounded recursion and an infinite loop. */
export const RECURSION = `module demo::recursion;

public fun fact(n: u64): u64 { if (n <= 1) 1 else n * fact(n - 1) }

public fun fib(n: u64): u64 { if (n < 2) n else fib(n - 1) + fib(n - 2) }

public fun is_even(n: u64): bool { if (n == 0) true else is_odd(n - 1) }

public fun is_odd(n: u64): bool { if (n == 0) false else is_even(n - 1) }

public fun forever(n: u64): u64 { forever(n + 1) }

public fun spin(): u64 {
    let mut i = 0;
    loop {
        i = i + 1;
        if (i == 0) break;
    };
    i
}
`;

/** Clever errors and plain abort codes. */
export const ERRORS = `module demo::errors;

#[error]
const ENotPositive: vector<u8> = b"value must be positive";

#[error(code = 7)]
const ECoded: vector<u8> = b"coded error";

const EPlain: u64 = 42;
const EHighBit: u64 = 0x8000000000000123;

public fun check_positive(x: u64): u64 {
    assert!(x > 0, ENotPositive);
    x
}

public fun coded(x: u64) {
    assert!(x == 0, ECoded);
}

public fun bare(x: u64) {
    assert!(x == 1);
}

public fun plain(x: u64) {
    assert!(x == 2, EPlain);
}

public fun high_bit() {
    abort EHighBit
}

public fun abort_clever() {
    abort ENotPositive
}

public fun max_code() {
    abort 18446744073709551615
}
`;

export const WIDTHS = [8, 16, 32, 64, 128, 256] as const;

/** One function per integer width and operator, and one per cast. */
export function arithmeticSource(): string {
  const lines = ['module demo::arith;', ''];
  const binary: [string, string][] = [
    ['add', '+'],
    ['sub', '-'],
    ['mul', '*'],
    ['div', '/'],
    ['mod', '%'],
    ['and', '&'],
    ['or', '|'],
    ['xor', '^'],
  ];
  for (const w of WIDTHS) {
    const t = `u${w}`;
    for (const [name, op] of binary) lines.push(`public fun ${name}_${t}(a: ${t}, b: ${t}): ${t} { a ${op} b }`);
    lines.push(`public fun shl_${t}(a: ${t}, s: u8): ${t} { a << s }`);
    lines.push(`public fun shr_${t}(a: ${t}, s: u8): ${t} { a >> s }`);
    lines.push(`public fun lt_${t}(a: ${t}, b: ${t}): bool { a < b }`);
    lines.push(`public fun ge_${t}(a: ${t}, b: ${t}): bool { a >= b }`);
    lines.push(`public fun eq_${t}(a: ${t}, b: ${t}): bool { a == b }`);
    lines.push(`public fun not_${t}(a: ${t}): ${t} { a ^ ${(1n << BigInt(w)) - 1n} }`);
    for (const v of WIDTHS) lines.push(`public fun cast_${t}_u${v}(a: ${t}): u${v} { (a as u${v}) }`);
  }
  return lines.join('\n') + '\n';
}

/** Values `demo::limits::wide` pushes at once. */
export const WIDE = 600;

/** Runtime limits: value depth (port of upstream `runtime_layout_deeply_nested.mvir`), vector length, operand stack. */
export const LIMITS = `module demo::limits;

public struct Box<T> has store, drop { x: T }
public struct Box3<T> has store, drop { x: Box<Box<T>> }
public struct Box7<T> has store, drop { x: Box3<Box3<T>> }
public struct Box15<T> has store, drop { x: Box7<Box7<T>> }
public struct Box31<T> has store, drop { x: Box15<Box15<T>> }
public struct Box63<T> has store, drop { x: Box31<Box31<T>> }
public struct Box127<T> has store, drop { x: Box63<Box63<T>> }
public struct Box128<T> has store, drop { x: Box127<T> }
public struct Box255<T> has store, drop { x: Box127<Box127<T>> }

public fun box3<T>(x: T): Box3<T> { Box3 { x: Box { x: Box { x } } } }
public fun box7<T>(x: T): Box7<T> { Box7 { x: box3(box3(x)) } }
public fun box15<T>(x: T): Box15<T> { Box15 { x: box7(box7(x)) } }
public fun box31<T>(x: T): Box31<T> { Box31 { x: box15(box15(x)) } }
public fun box63<T>(x: T): Box63<T> { Box63 { x: box31(box31(x)) } }
public fun box127<T>(x: T): Box127<T> { Box127 { x: box63(box63(x)) } }
public fun box128<T>(x: T): Box128<T> { Box128 { x: box127(x) } }
public fun box255<T>(x: T): Box255<T> { Box255 { x: box127(box127(x)) } }

public fun publish_127(): Box127<bool> { box127(true) }
public fun publish_128(): Box128<bool> { box128(true) }
public fun publish_256(): Box255<bool> { box255(true) }

public fun fill(n: u64): u64 {
    let mut v = vector[];
    let mut i = 0;
    while (i < n) {
        v.push_back(i);
        i = i + 1;
    };
    v.length()
}

/// Pushes ${WIDE} values only when \`flag\` is true.
public fun wide(flag: bool, x: u8): u64 {
    if (flag) {
        let v = vector[${Array.from({ length: WIDE }, () => 'x').join(', ')}];
        v.length()
    } else 0
}

/// Each frame keeps one value on the operand stack while it recurses.
public fun nest(n: u64, flag: bool): u64 {
    if (n == 0) wide(flag, 1) else 1 + nest(n - 1, flag)
}
`;

/** Port of upstream `sui-adapter-transactional-tests/runtime_behavior/error_locations.move`. */
export const LOCATIONS = `#[allow(always_errors)]
module demo::locations {
    entry fun abort_() {
        // should be offset 1
        abort 0
    }

    entry fun loop_() {
        // should be offset 0
        loop {}
    }

    entry fun math() {
        // should be offset 2
        0 - 1u64;
    }

    entry fun vector_() {
        // should be offset 4
        std::vector::borrow(&vector[0u64], 1);
    }
}
`;
