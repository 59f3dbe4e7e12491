/** Our declarations of the public macros of `std::vector` and `std::option` (see `stub-macros.ts`). */
import { macro, type MacroDeclaration } from './stub-extras-types.js';

const OPT = 'std::option::Option';
const V = ['vector::length', 'vector::pop_back', 'vector::destroy_empty'];

/** `std::vector`. */
export const VECTOR_MACROS: MacroDeclaration[] = [
  macro(
    'tabulate',
    ['vector::push_back', 'u64::do!'],
    `
public macro fun tabulate<$T>($n: u64, $f: |u64| -> $T): vector<$T> {
    let mut v = vector[];
    let n = $n;
    n.do!(|i| v.push_back($f(i)));
    v
}`,
  ),
  macro(
    'destroy',
    [...V, 'u64::do!'],
    `
public macro fun destroy<$T, $R: drop>($v: vector<$T>, $f: |$T| -> $R) {
    let mut v = $v;
    v.length().do!(|_| $f(v.pop_back()));
    v.destroy_empty();
}`,
  ),
  macro(
    'do',
    [...V, 'vector::reverse', 'u64::do!'],
    `
public macro fun do<$T, $R: drop>($v: vector<$T>, $f: |$T| -> $R) {
    let mut v = $v;
    v.reverse();
    v.length().do!(|_| $f(v.pop_back()));
    v.destroy_empty();
}`,
  ),
  macro(
    'do_ref',
    ['vector::length', 'vector::borrow', 'u64::do!'],
    `
public macro fun do_ref<$T, $R: drop>($v: &vector<$T>, $f: |&$T| -> $R) {
    let v = $v;
    v.length().do!(|i| $f(&v[i]))
}`,
  ),
  macro(
    'do_mut',
    ['vector::length', 'vector::borrow_mut', 'u64::do!'],
    `
public macro fun do_mut<$T, $R: drop>($v: &mut vector<$T>, $f: |&mut $T| -> $R) {
    let v = $v;
    v.length().do!(|i| $f(&mut v[i]))
}`,
  ),
  macro(
    'map',
    ['vector::push_back', 'vector::do!'],
    `
public macro fun map<$T, $U>($v: vector<$T>, $f: |$T| -> $U): vector<$U> {
    let v = $v;
    let mut r = vector[];
    v.do!(|e| r.push_back($f(e)));
    r
}`,
  ),
  macro(
    'map_ref',
    ['vector::push_back', 'vector::do_ref!'],
    `
public macro fun map_ref<$T, $U>($v: &vector<$T>, $f: |&$T| -> $U): vector<$U> {
    let v = $v;
    let mut r = vector[];
    v.do_ref!(|e| r.push_back($f(e)));
    r
}`,
  ),
  macro(
    'filter',
    ['vector::push_back', 'vector::do!'],
    `
public macro fun filter<$T: drop>($v: vector<$T>, $f: |&$T| -> bool): vector<$T> {
    let v = $v;
    let mut r = vector[];
    v.do!(|e| if ($f(&e)) r.push_back(e));
    r
}`,
  ),
  macro(
    'partition',
    ['vector::push_back', 'vector::do!'],
    `
public macro fun partition<$T>($v: vector<$T>, $f: |&$T| -> bool): (vector<$T>, vector<$T>) {
    let v = $v;
    let mut r1 = vector[];
    let mut r2 = vector[];
    v.do!(|e| if ($f(&e)) r1.push_back(e) else r2.push_back(e));
    (r1, r2)
}`,
  ),
  macro(
    'find_index',
    ['vector::length', 'vector::borrow', 'u64::do!'],
    `
public macro fun find_index<$T>($v: &vector<$T>, $f: |&$T| -> bool): ${OPT}<u64> {
    let v = $v;
    'find_index: {
        v.length().do!(|i| if ($f(&v[i])) return 'find_index std::option::some(i));
        std::option::none()
    }
}`,
  ),
  macro(
    'find_indices',
    ['vector::length', 'vector::borrow', 'vector::push_back', 'u64::do!'],
    `
public macro fun find_indices<$T>($v: &vector<$T>, $f: |&$T| -> bool): vector<u64> {
    let v = $v;
    let mut indices = vector[];
    v.length().do!(|i| if ($f(&v[i])) indices.push_back(i));
    indices
}`,
  ),
  macro(
    'count',
    ['vector::do_ref!'],
    `
public macro fun count<$T>($v: &vector<$T>, $f: |&$T| -> bool): u64 {
    let v = $v;
    let mut count = 0;
    v.do_ref!(|e| if ($f(e)) count = count + 1);
    count
}`,
  ),
  macro(
    'fold',
    ['vector::do!'],
    `
public macro fun fold<$T, $Acc>($v: vector<$T>, $init: $Acc, $f: |$Acc, $T| -> $Acc): $Acc {
    let v = $v;
    let mut acc = $init;
    v.do!(|e| acc = $f(acc, e));
    acc
}`,
  ),
  macro(
    'any',
    ['vector::do_ref!'],
    `
public macro fun any<$T>($v: &vector<$T>, $f: |&$T| -> bool): bool {
    let v = $v;
    'any: {
        v.do_ref!(|e| if ($f(e)) return 'any true);
        false
    }
}`,
  ),
  macro(
    'all',
    ['vector::do_ref!'],
    `
public macro fun all<$T>($v: &vector<$T>, $f: |&$T| -> bool): bool {
    let v = $v;
    'all: {
        v.do_ref!(|e| if (!$f(e)) return 'all false);
        true
    }
}`,
  ),
  macro(
    'zip_do',
    [...V, 'vector::reverse', 'vector::do!'],
    `
public macro fun zip_do<$T1, $T2, $R: drop>($v1: vector<$T1>, $v2: vector<$T2>, $f: |$T1, $T2| -> $R) {
    let v1 = $v1;
    let mut v2 = $v2;
    v2.reverse();
    let len = v1.length();
    assert!(len == v2.length());
    v1.do!(|el1| $f(el1, v2.pop_back()));
    v2.destroy_empty();
}`,
  ),
  macro(
    'zip_do_reverse',
    ['vector::length', 'vector::pop_back', 'vector::destroy!'],
    `
public macro fun zip_do_reverse<$T1, $T2, $R: drop>($v1: vector<$T1>, $v2: vector<$T2>, $f: |$T1, $T2| -> $R) {
    let v1 = $v1;
    let mut v2 = $v2;
    let len = v1.length();
    assert!(len == v2.length());
    v1.destroy!(|el1| $f(el1, v2.pop_back()));
}`,
  ),
  macro(
    'zip_do_ref',
    ['vector::length', 'vector::borrow', 'u64::do!'],
    `
public macro fun zip_do_ref<$T1, $T2, $R: drop>($v1: &vector<$T1>, $v2: &vector<$T2>, $f: |&$T1, &$T2| -> $R) {
    let v1 = $v1;
    let v2 = $v2;
    let len = v1.length();
    assert!(len == v2.length());
    len.do!(|i| $f(&v1[i], &v2[i]));
}`,
  ),
  macro(
    'zip_do_mut',
    ['vector::length', 'vector::borrow_mut', 'u64::do!'],
    `
public macro fun zip_do_mut<$T1, $T2, $R: drop>($v1: &mut vector<$T1>, $v2: &mut vector<$T2>, $f: |&mut $T1, &mut $T2| -> $R) {
    let v1 = $v1;
    let v2 = $v2;
    let len = v1.length();
    assert!(len == v2.length());
    len.do!(|i| $f(&mut v1[i], &mut v2[i]));
}`,
  ),
  macro(
    'zip_map',
    ['vector::push_back', 'vector::zip_do!'],
    `
public macro fun zip_map<$T1, $T2, $U>($v1: vector<$T1>, $v2: vector<$T2>, $f: |$T1, $T2| -> $U): vector<$U> {
    let mut r = vector[];
    zip_do!($v1, $v2, |el1, el2| r.push_back($f(el1, el2)));
    r
}`,
  ),
  macro(
    'zip_map_ref',
    ['vector::push_back', 'vector::zip_do_ref!'],
    `
public macro fun zip_map_ref<$T1, $T2, $U>($v1: &vector<$T1>, $v2: &vector<$T2>, $f: |&$T1, &$T2| -> $U): vector<$U> {
    let mut r = vector[];
    zip_do_ref!($v1, $v2, |el1, el2| r.push_back($f(el1, el2)));
    r
}`,
  ),
  macro(
    'insertion_sort_by',
    ['vector::length', 'vector::borrow', 'vector::swap'],
    `
public macro fun insertion_sort_by<$T>($v: &mut vector<$T>, $le: |&$T, &$T| -> bool) {
    let v = $v;
    let n = v.length();
    if (n < 2) return;
    let mut i = 1;
    while (i < n) {
        let mut j = i;
        while (j > 0 && !$le(&v[j - 1], &v[j])) {
            v.swap(j, j - 1);
            j = j - 1;
        };
        i = i + 1;
    }
}`,
  ),
  // Bottom-up merge with an explicit stack of (sorted halves?, start, end) frames; merging is
  // in place, by adjacent swaps, so it needs neither `copy` nor `drop` of the elements.
  macro(
    'merge_sort_by',
    ['vector::length', 'vector::borrow', 'vector::swap', 'vector::is_empty', 'vector::pop_back', 'vector::push_back'],
    `
public macro fun merge_sort_by<$T>($v: &mut vector<$T>, $le: |&$T, &$T| -> bool) {
    let v = $v;
    let n = v.length();
    if (n < 2) return;
    let mut flags = vector[false];
    let mut starts = vector[0];
    let mut ends = vector[n];
    while (!flags.is_empty()) {
        let (halves_sorted, start, end) = (flags.pop_back(), starts.pop_back(), ends.pop_back());
        let mid = (start + end) / 2;
        if (halves_sorted) {
            let mut mid = mid;
            let mut l = start;
            let mut r = mid;
            while (l < mid && r < end) {
                if ($le(&v[l], &v[r])) {
                    l = l + 1;
                } else {
                    let mut i = r;
                    while (i > l) {
                        v.swap(i, i - 1);
                        i = i - 1;
                    };
                    l = l + 1;
                    mid = mid + 1;
                    r = r + 1;
                }
            }
        } else {
            flags.push_back(true);
            starts.push_back(start);
            ends.push_back(end);
            if (mid - start > 1) {
                flags.push_back(false);
                starts.push_back(start);
                ends.push_back(mid);
            };
            if (end - mid > 1) {
                flags.push_back(false);
                starts.push_back(mid);
                ends.push_back(end);
            }
        }
    }
}`,
  ),
  macro(
    'is_sorted_by',
    ['vector::length', 'vector::borrow', 'u64::max', 'u64::do!'],
    `
public macro fun is_sorted_by<$T>($v: &vector<$T>, $le: |&$T, &$T| -> bool): bool {
    let v = $v;
    let n_minus_1 = v.length().max(1) - 1;
    'is_sorted_by: {
        n_minus_1.do!(|i| if (!$le(&v[i], &v[i + 1])) return 'is_sorted_by false);
        true
    }
}`,
  ),
  macro(
    'take_while',
    ['vector::push_back', 'vector::do!'],
    `
public macro fun take_while<$T: drop>($v: vector<$T>, $p: |&$T| -> bool): vector<$T> {
    let v = $v;
    'take: {
        let mut r = vector[];
        v.do!(|e| if ($p(&e)) r.push_back(e) else return 'take r);
        r
    }
}`,
  ),
  macro(
    'skip_while',
    ['vector::reverse', 'vector::length', 'vector::borrow', 'vector::pop_back'],
    `
public macro fun skip_while<$T: drop>($v: vector<$T>, $p: |&$T| -> bool): vector<$T> {
    let mut v = $v;
    v.reverse();
    let mut i = v.length();
    while (i > 0) {
        i = i - 1;
        if ($p(&v[i])) v.pop_back() else break;
    };
    v.reverse();
    v
}`,
  ),
];

/** `std::option`. */
const SOME = ['option::is_some', 'option::destroy_some', 'option::destroy_none'];
export const OPTION_MACROS: MacroDeclaration[] = [
  macro('destroy', ['option::do!'], `public macro fun destroy<$T, $R: drop>($o: Option<$T>, $f: |$T| -> $R) { let o = $o; o.do!($f); }`),
  macro('do', SOME, `public macro fun do<$T, $R: drop>($o: Option<$T>, $f: |$T| -> $R) { let o = $o; if (o.is_some()) { $f(o.destroy_some()); } else o.destroy_none() }`),
  macro('do_ref', ['option::is_some', 'option::borrow'], `public macro fun do_ref<$T, $R: drop>($o: &Option<$T>, $f: |&$T| -> $R) { let o = $o; if (o.is_some()) { $f(o.borrow()); } }`),
  macro(
    'do_mut',
    ['option::is_some', 'option::borrow_mut'],
    `public macro fun do_mut<$T, $R: drop>($o: &mut Option<$T>, $f: |&mut $T| -> $R) { let o = $o; if (o.is_some()) { $f(o.borrow_mut()); } }`,
  ),
  macro(
    'or',
    ['option::is_some', 'option::destroy_none'],
    `
public macro fun or<$T>($o: Option<$T>, $default: Option<$T>): Option<$T> {
    let o = $o;
    if (o.is_some()) {
        o
    } else {
        o.destroy_none();
        $default
    }
}`,
  ),
  macro(
    'and',
    [...SOME, 'option::none'],
    `
public macro fun and<$T, $U>($o: Option<$T>, $f: |$T| -> Option<$U>): Option<$U> {
    let o = $o;
    if (o.is_some()) {
        $f(o.destroy_some())
    } else {
        o.destroy_none();
        none()
    }
}`,
  ),
  macro(
    'and_ref',
    ['option::is_some', 'option::borrow', 'option::none'],
    `public macro fun and_ref<$T, $U>($o: &Option<$T>, $f: |&$T| -> Option<$U>): Option<$U> { let o = $o; if (o.is_some()) $f(o.borrow()) else none() }`,
  ),
  macro(
    'map',
    [...SOME, 'option::some', 'option::none'],
    `
public macro fun map<$T, $U>($o: Option<$T>, $f: |$T| -> $U): Option<$U> {
    let o = $o;
    if (o.is_some()) {
        some($f(o.destroy_some()))
    } else {
        o.destroy_none();
        none()
    }
}`,
  ),
  macro(
    'map_ref',
    ['option::is_some', 'option::borrow', 'option::some', 'option::none'],
    `public macro fun map_ref<$T, $U>($o: &Option<$T>, $f: |&$T| -> $U): Option<$U> { let o = $o; if (o.is_some()) some($f(o.borrow())) else none() }`,
  ),
  macro(
    'map_mut',
    ['option::is_some', 'option::borrow_mut', 'option::some', 'option::none'],
    `public macro fun map_mut<$T, $U>($o: &mut Option<$T>, $f: |&mut $T| -> $U): Option<$U> { let o = $o; if (o.is_some()) some($f(o.borrow_mut())) else none() }`,
  ),
  macro(
    'filter',
    ['option::is_some', 'option::borrow', 'option::none'],
    `public macro fun filter<$T: drop>($o: Option<$T>, $f: |&$T| -> bool): Option<$T> { let o = $o; if (o.is_some() && $f(o.borrow())) o else none() }`,
  ),
  macro('is_some_and', ['option::is_some', 'option::borrow'], `public macro fun is_some_and<$T>($o: &Option<$T>, $f: |&$T| -> bool): bool { let o = $o; o.is_some() && $f(o.borrow()) }`),
  macro('is_none_or', ['option::is_none', 'option::borrow'], `public macro fun is_none_or<$T>($o: &Option<$T>, $f: |&$T| -> bool): bool { let o = $o; o.is_none() || $f(o.borrow()) }`),
  macro(
    'fold',
    SOME,
    `
public macro fun fold<$T, $R>($o: Option<$T>, $none: $R, $some: |$T| -> $R): $R {
    let o = $o;
    if (o.is_some()) {
        $some(o.destroy_some())
    } else {
        o.destroy_none();
        $none
    }
}`,
  ),
  macro(
    'fold_ref',
    ['option::is_some', 'option::borrow'],
    `public macro fun fold_ref<$T, $R>($o: &Option<$T>, $none: $R, $some: |&$T| -> $R): $R { let o = $o; if (o.is_some()) $some(o.borrow()) else $none }`,
  ),
  macro(
    'fold_mut',
    ['option::is_some', 'option::borrow_mut'],
    `public macro fun fold_mut<$T, $R>($o: &mut Option<$T>, $none: $R, $some: |&mut $T| -> $R): $R { let o = $o; if (o.is_some()) $some(o.borrow_mut()) else $none }`,
  ),
  macro('extract_or', ['option::is_some', 'option::extract'], `public macro fun extract_or<$T>($o: &mut Option<$T>, $default: $T): $T { let o = $o; if (o.is_some()) o.extract() else $default }`),
  macro(
    'destroy_or',
    SOME,
    `
public macro fun destroy_or<$T>($o: Option<$T>, $default: $T): $T {
    let o = $o;
    if (o.is_some()) {
        o.destroy_some()
    } else {
        o.destroy_none();
        $default
    }
}`,
  ),
];
