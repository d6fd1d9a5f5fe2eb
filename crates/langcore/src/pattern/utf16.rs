//! JavaScript without the `u` flag reads UTF-16 code units, not characters: a character
//! above U+FFFF is two units (a high and a low surrogate), so `.` and `[^a]` match half of
//! one, `^.$` does not match `😀` while `^..$` does, and `😀+` repeats its low half only.
//!
//! The front end reads such a pattern over units, each surrogate standing for itself as
//! a private character ([`unit_char`]: U+100000 + its offset from U+D800; no pattern of
//! the dialect can name those characters, which are above U+FFFF, as one atom), and
//! [`characters`] turns the automaton over units into the automaton over characters: a
//! character above U+FFFF moves where its high unit and then its low unit lead, every
//! other character where it leads by itself. That is exact for every construct, the
//! assertions included, since they were decided over units first.

use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation};
use rustc_hash::FxHashMap as HashMap;

use crate::nfa::{ClosureScratch, LabelId, Nfa, NfaBuilder, State};
use crate::state_id::StateId;

/// The first surrogate unit.
const FIRST_SURROGATE: u32 = 0xD800;
/// The character that stands for the first surrogate unit (Supplementary Private Use
/// Area-B; the backtracking analysis's tags are in plane 15).
const UNIT_BASE: u32 = 0x10_0000;
/// The first low surrogate.
const FIRST_LOW: u32 = 0xDC00;
/// The number of surrogates of each kind.
const HALF: u32 = 0x400;
/// The first character that is two units.
const FIRST_PAIR: u32 = 0x1_0000;

/// The character that stands for code unit `unit` (itself below U+D800 or above U+DFFF).
pub(super) fn unit_char(unit: u32) -> char {
    let code = if (FIRST_SURROGATE..=0xDFFF).contains(&unit) {
        UNIT_BASE + unit - FIRST_SURROGATE
    } else {
        unit
    };
    char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// The code unit a character of a unit pattern stands for: the inverse of [`unit_char`].
pub(super) fn unit_of(c: char) -> u32 {
    let code = u32::from(c);
    if (UNIT_BASE..UNIT_BASE + 2 * HALF).contains(&code) {
        code - UNIT_BASE + FIRST_SURROGATE
    } else {
        code
    }
}

/// The two units of `c` where it is above U+FFFF, as [`unit_char`]s.
pub(super) fn halves(c: char) -> Option<[char; 2]> {
    let offset = u32::from(c).checked_sub(FIRST_PAIR)?;
    Some([unit_char(FIRST_SURROGATE + offset / HALF), unit_char(FIRST_LOW + offset % HALF)])
}

/// The units `lo..=hi` as a set of characters: the surrogates among them as [`unit_char`]s.
pub(super) fn unit_range(lo: u32, hi: u32) -> CharSet {
    let chars = |lo: u32, hi: u32| match (char::from_u32(lo), char::from_u32(hi)) {
        (Some(lo), Some(hi)) if lo <= hi => CharSet::range(lo, hi),
        _ => CharSet::empty(),
    };
    let surrogates = if lo <= 0xDFFF && hi >= FIRST_SURROGATE {
        CharSet::range(unit_char(lo.max(FIRST_SURROGATE)), unit_char(hi.min(0xDFFF)))
    } else {
        CharSet::empty()
    };
    chars(lo, hi.min(0xD7FF)).union(&chars(lo.max(0xE000), hi)).union(&surrogates)
}

/// The surrogate units `lo..=hi` that `set` holds, as ranges of offsets from `lo`.
fn offsets(lo: u32, hi: u32, set: &CharSet) -> Vec<(u32, u32)> {
    let range = CharSet::range(unit_char(lo), unit_char(hi));
    let within = set.intersection(&range);
    within.ranges().iter().map(|&(a, b)| (unit_of(a) - lo, unit_of(b) - lo)).collect()
}

/// The characters of `units`, a string of units as [`unit_char`] writes them: each high
/// surrogate and the low one after it make one character; `None` where a surrogate is
/// alone, or where a character above U+FFFF stands as one unit.
pub(crate) fn text_of_units(units: &str) -> Option<String> {
    let mut text = String::with_capacity(units.len());
    let mut chars = units.chars().peekable();
    while let Some(c) = chars.next() {
        let unit = unit_of(c);
        if unit < FIRST_PAIR && !(FIRST_SURROGATE..=0xDFFF).contains(&unit) {
            text.push(c);
            continue;
        }
        let low = chars.next_if(|&next| (FIRST_LOW..FIRST_LOW + HALF).contains(&unit_of(next)));
        let (Some(low), true) = (low, (FIRST_SURROGATE..FIRST_LOW).contains(&unit)) else {
            return None;
        };
        let offset = (unit - FIRST_SURROGATE) * HALF + unit_of(low) - FIRST_LOW;
        text.push(char::from_u32(FIRST_PAIR + offset)?);
    }
    Some(text)
}

/// Whether `set` holds a character above U+FFFF, which over units is a surrogate.
pub(super) fn reaches_pairs(set: &CharSet) -> bool {
    set.ranges().last().is_some_and(|&(_, hi)| u32::from(hi) >= FIRST_PAIR)
}

/// The automaton over characters of `units`, an automaton over units: a string is accepted
/// iff its UTF-16 encoding is. The same states and ε-moves; each move keeps its characters
/// below U+10000, and a move on high units gains, for every move on low units that its
/// target reaches by ε-moves, one move on the characters those two units make. Nothing is
/// determinized, so a language read this way is built only when a question needs it.
///
/// # Errors
/// When the result exceeds `budget`: its deadline, or its memory limit for the labels of
/// pairs (each high and low label pair may take up to 1,024 ranges of characters).
pub(super) fn characters(units: &Nfa, budget: &Budget) -> Result<Nfa, BudgetError> {
    let bmp = CharSet::range('\0', '\u{D7FF}').union(&CharSet::range('\u{E000}', '\u{FFFF}'));
    let mut builder = NfaBuilder::new(budget, Operation::BuildNfa);
    // Each label's parts once, not once per move: its characters below U+10000 (as a label
    // of the result), and its high and low units.
    let mut singles = Vec::with_capacity(units.labels().len());
    let (mut highs, mut lows) = (Vec::new(), Vec::new());
    for label in units.labels() {
        let single = label.intersection(&bmp);
        singles.push((!single.is_empty()).then(|| builder.intern_owned(single)));
        highs.push(offsets(FIRST_SURROGATE, FIRST_LOW - 1, label));
        lows.push(offsets(FIRST_LOW, FIRST_LOW + HALF - 1, label));
    }
    // The label of the pairs of a high label and a low one, made once.
    let mut pair_labels: HashMap<(LabelId, LabelId), Option<LabelId>> = HashMap::default();
    // The labels of pairs, which may each take up to 1,024 ranges per range of low units.
    let mut pair_bytes = 0_usize;
    let mut scratch = ClosureScratch::new(units.n_states());
    let mut after_high = Vec::new();
    for id in 0..units.n_states() {
        let state = units.state(StateId::from_index(id));
        let mut transitions = Vec::with_capacity(state.transitions.len());
        for &(label, target) in &state.transitions {
            if let Some(single) = singles[label.index()] {
                transitions.push((single, target));
            }
            if highs[label.index()].is_empty() {
                continue;
            }
            units.closure(&[target], &mut scratch, &mut after_high);
            for &middle in &after_high {
                for &(low, end) in &units.state(middle).transitions {
                    let pair = match pair_labels.get(&(label, low)) {
                        Some(&pair) => pair,
                        None => {
                            let pairs = pairs(&highs[label.index()], &lows[low.index()]);
                            pair_bytes += std::mem::size_of_val(pairs.ranges());
                            budget.check_memory(Operation::BuildNfa, pair_bytes)?;
                            let pair = (!pairs.is_empty()).then(|| builder.intern_owned(pairs));
                            *pair_labels.entry((label, low)).or_insert(pair)
                        }
                    };
                    if let Some(pair) = pair {
                        transitions.push((pair, end));
                    }
                }
            }
            builder.check_time()?;
        }
        let epsilons = state.epsilons.clone();
        builder.add(State { transitions, epsilons, accepting: state.accepting })?;
    }
    Ok(builder.finish(units.start()))
}

/// The characters whose high unit's offset is in `highs` and low unit's in `lows`.
fn pairs(highs: &[(u32, u32)], lows: &[(u32, u32)]) -> CharSet {
    let char_at =
        |high: u32, low: u32| char::from_u32(FIRST_PAIR + high * HALF + low).unwrap_or(char::MAX);
    let mut ranges = Vec::new();
    for &(high_lo, high_hi) in highs {
        if lows == [(0, HALF - 1)] {
            ranges.push((char_at(high_lo, 0), char_at(high_hi, HALF - 1)));
            continue;
        }
        for high in high_lo..=high_hi {
            ranges.extend(lows.iter().map(|&(lo, hi)| (char_at(high, lo), char_at(high, hi))));
        }
    }
    CharSet::from_ranges(ranges)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{Graph, GraphState};

    #[test]
    fn units_and_their_characters_round_trip() {
        for unit in [0, 0x41, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFF] {
            assert_eq!(unit_of(unit_char(unit)), unit);
        }
        assert_eq!(halves('😀'), Some([unit_char(0xD83D), unit_char(0xDE00)]));
        assert_eq!(halves('\u{FFFF}'), None);
        let all = unit_range(0, 0xFFFF);
        assert_eq!(all.len(), 0x10000);
        assert!(all.contains(unit_char(0xDABC)) && !all.contains('😀'));
        assert_eq!(unit_range(0xD83D, 0xD83D), CharSet::singleton(unit_char(0xD83D)));
        let [high, low] = halves('😀').unwrap();
        assert_eq!(text_of_units(&format!("a{high}{low}b")).as_deref(), Some("a😀b"));
        for lone in [format!("{high}"), format!("{low}{high}"), "😀".to_owned()] {
            assert_eq!(text_of_units(&lone), None, "{lone:?}");
        }
    }

    /// Every other high unit, then every other low unit: 262,144 ranges of characters, 2 MiB,
    /// which a budget of 1 MiB refuses before building them all.
    #[test]
    fn the_labels_of_pairs_are_charged_to_the_memory_limit() {
        let every_other = |first: u32| {
            CharSet::from_ranges((0..HALF / 2).map(|k| unit_char(first + 2 * k)).map(|c| (c, c)))
        };
        let id = crate::state_id::StateId::from_index;
        let states = vec![
            GraphState { accepting: false, moves: vec![(every_other(FIRST_SURROGATE), id(1))] },
            GraphState { accepting: false, moves: vec![(every_other(FIRST_LOW), id(2))] },
            GraphState { accepting: true, moves: Vec::new() },
        ];
        let units = Nfa::from_graph(&Graph::from_parts(id(0), states));
        let small = Budget::default().with_max_memory(1 << 20);
        let err = characters(&units, &small).unwrap_err();
        assert!(matches!(err, BudgetError::TooMuchMemory { .. }), "{err}");
        let pairs = characters(&units, &Budget::default()).unwrap();
        assert!(pairs.matches("\u{10000}") && !pairs.matches("\u{10001}"));
    }

    #[test]
    fn a_pair_of_unit_ranges_is_its_characters() {
        let every_low = pairs(&[(0x3D, 0x3D)], &[(0, HALF - 1)]);
        assert_eq!(every_low, CharSet::range('\u{1F400}', '\u{1F7FF}'));
        let one = pairs(&[(0x3D, 0x3E)], &[(0x200, 0x200)]);
        assert_eq!(one, CharSet::from_ranges([('😀', '😀'), ('\u{1FA00}', '\u{1FA00}')]));
    }
}
