//! Random patterns over the whole grammar the front end reads, in one dialect's syntax.
//!
//! # Overview
//! [`Generator::sample`] writes one pattern and the constructs it used ([`Sample`]): groups
//! (capturing, named in each of the dialect's spellings, non-capturing), references
//! (numbered and named, before, inside and after their group, in and after repetitions,
//! branches and lookarounds), lookarounds, atomic groups, conditionals, scoped and global
//! flags, classes (ranges, negation, escapes, Java's `&&` and nesting, POSIX names,
//! properties), `\b` `\B` and anchors, greedy, lazy and possessive quantifiers, counted
//! repetitions, `\Q...\E`, comments, escapes. Literals come from a tiny alphabet (`a`, `b`,
//! `-`, `A`, `é`, the combining acute accent U+0301, space, and `😀`, two UTF-16 units in
//! JavaScript, which also gets escaped surrogates), so short strings reach every branch.
//!
//! Each dialect gets its own syntax for what it has, and, rarely, another dialect's
//! construct, so that refusals are checked too (the home engine must refuse what relang
//! refuses as invalid, and the reverse).
//!
//! # Invariants
//! The generator is a pure function of its seed: the same seed gives the same patterns.
//! Nesting is at most [`MAX_DEPTH`] groups deep; a pattern is at most a few dozen
//! characters.

use langcore::Dialect;

/// How deep groups nest.
const MAX_DEPTH: u32 = 3;
/// How often a construct of another dialect is written, in percent.
const FOREIGN_PERCENT: u64 = 3;

/// SplitMix64: a small, fast generator whose streams are fixed by the seed.
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `percent` / 100.
    pub(crate) fn percent(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// One generated pattern and the names of the constructs it uses.
#[derive(Clone, Debug)]
pub(crate) struct Sample {
    pub(crate) pattern: String,
    pub(crate) features: Vec<&'static str>,
}

/// Writes random patterns in one dialect's syntax.
pub(crate) struct Generator {
    rng: Rng,
    dialect: Dialect,
    /// Whether the JavaScript engine reads `(?i:...)` (ECMAScript 2025 modifiers).
    js_modifiers: bool,
    /// Groups opened so far in the pattern being written: the next one is this plus one.
    n_groups: u32,
    /// Groups closed so far, by number.
    closed: Vec<u32>,
    /// Names given to groups so far.
    names: Vec<&'static str>,
    /// Inside a lookbehind: quantifiers mostly of fixed count, as Python and Java want.
    in_behind: bool,
    /// Only what the `regex` crate reads, the default dialect's oracle: most of its
    /// patterns are written so.
    plain: bool,
    features: Vec<&'static str>,
}

impl Generator {
    pub(crate) fn new(dialect: Dialect, seed: u64, js_modifiers: bool) -> Generator {
        Generator {
            rng: Rng::new(seed),
            dialect,
            js_modifiers,
            n_groups: 0,
            closed: Vec::new(),
            names: Vec::new(),
            in_behind: false,
            plain: false,
            features: Vec::new(),
        }
    }

    /// The next pattern.
    pub(crate) fn sample(&mut self) -> Sample {
        self.n_groups = 0;
        self.closed.clear();
        self.names.clear();
        self.in_behind = false;
        self.features.clear();
        self.plain = self.dialect == Dialect::Rust && self.rng.percent(70);
        let mut pattern = String::new();
        if self.dialect == Dialect::Pcre && self.rng.percent(8) {
            self.note("start-option");
            let options: [&str; 5] =
                ["(*UCP)", "(*UTF)", "(*UCP)(*UTF)", "(*NO_AUTO_POSSESS)", "(*LIMIT_MATCH=99)"];
            let option = *self.rng.pick(&options);
            pattern.push_str(option);
        }
        if self.rng.percent(12) {
            pattern.push_str(&self.global_flag());
        }
        pattern.push_str(&self.alternation(MAX_DEPTH));
        let mut features = std::mem::take(&mut self.features);
        features.sort_unstable();
        features.dedup();
        Sample { pattern, features }
    }

    fn foreign(&mut self) -> bool {
        self.rng.percent(FOREIGN_PERCENT)
    }

    fn note(&mut self, feature: &'static str) {
        self.features.push(feature);
    }

    fn alternation(&mut self, depth: u32) -> String {
        self.branches(depth, false)
    }

    /// Branches; with `reset`, a branch reset's: each numbers its groups from the same
    /// number, and the groups after them from the widest branch's last.
    fn branches(&mut self, depth: u32, reset: bool) -> String {
        let n_branches = if self.rng.percent(22) { 2 + self.rng.below(2) } else { 1 };
        if n_branches > 1 {
            self.note("alternation");
        }
        let first = self.n_groups;
        let mut most = first;
        let mut branch = |generator: &mut Self| {
            if reset {
                most = most.max(generator.n_groups);
                generator.n_groups = first;
            }
            generator.sequence(depth)
        };
        let branches: Vec<String> = (0..n_branches).map(|_| branch(self)).collect();
        self.n_groups = self.n_groups.max(most);
        branches.join("|")
    }

    fn sequence(&mut self, depth: u32) -> String {
        let n_items = self.rng.below(4);
        let mut res = String::new();
        for _ in 0..n_items {
            let atom = self.atom(depth);
            res.push_str(&atom);
            // Python and JavaScript refuse most quantified assertions: fewer of them.
            let is_assertion = ["^", "$", "\\b", "\\B", "\\A", "\\z", "\\Z", "(?=", "(?!", "(?<="]
                .iter()
                .any(|head| atom.starts_with(head))
                || atom.starts_with("(?<!");
            let percent = if is_assertion { 6 } else { 30 };
            if self.rng.percent(percent) && !atom.is_empty() {
                res.push_str(&self.quantifier());
            }
        }
        res
    }

    fn quantifier(&mut self) -> String {
        let fixed = self.in_behind && self.rng.percent(70);
        let base = if fixed {
            self.rng.pick(&["{2}", "{1}"])
        } else {
            let base = *self.rng.pick(&[
                "*", "+", "?", "*", "+", "?", "{2}", "{1,2}", "{0,}", "{,2}", "{2,1}", "{0}",
            ]);
            // Java refuses both, Perl reads `{2,1}` where PCRE refuses it: rarely.
            if matches!(base, "{,2}" | "{2,1}") && !self.rng.percent(25) { "{1,2}" } else { base }
        };
        if base.starts_with('{') {
            self.note("counted");
        }
        let suffix = match self.rng.below(100) {
            0..=17 => {
                self.note("lazy");
                "?"
            }
            18..=29 if !self.plain && (self.dialect != Dialect::Js || self.foreign()) => {
                self.note("possessive");
                "+"
            }
            _ => "",
        };
        format!("{base}{suffix}")
    }

    fn atom(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.percent(55) {
            return self.leaf();
        }
        let inner = depth - 1;
        let choice = self.rng.below(100);
        if self.plain && ((38..=77).contains(&choice) || choice >= 90) {
            self.note("non-capturing");
            return format!("(?:{})", self.alternation(inner));
        }
        match choice {
            0..=17 => {
                self.note("group");
                self.n_groups += 1;
                let number = self.n_groups;
                let body = self.alternation(inner);
                self.closed.push(number);
                format!("({body})")
            }
            18..=27 => self.named_group(inner),
            35..=37 if self.dialect == Dialect::Pcre => {
                self.note("branch-reset");
                format!("(?|{})", self.branches(inner, true))
            }
            28..=37 => {
                self.note("non-capturing");
                format!("(?:{})", self.alternation(inner))
            }
            38..=47 => {
                self.note("lookahead");
                let negated = self.rng.percent(40);
                let body = self.alternation(inner);
                if self.dialect == Dialect::Pcre && self.rng.percent(20) {
                    return format!("(*{}la:{body})", if negated { "n" } else { "p" });
                }
                format!("(?{}{body})", if negated { "!" } else { "=" })
            }
            48..=57 => {
                self.note("lookbehind");
                let negated = self.rng.percent(40);
                let was = std::mem::replace(&mut self.in_behind, true);
                let body = self.alternation(inner);
                self.in_behind = was;
                if self.dialect == Dialect::Pcre && self.rng.percent(20) {
                    return format!("(*{}lb:{body})", if negated { "n" } else { "p" });
                }
                format!("(?<{}{body})", if negated { "!" } else { "=" })
            }
            58..=67 => {
                if self.dialect == Dialect::Js && !self.foreign() {
                    return self.leaf();
                }
                self.note("atomic");
                let body = self.alternation(inner);
                if self.dialect == Dialect::Pcre && self.rng.percent(20) {
                    return if self.rng.percent(20) {
                        "(*F)".into()
                    } else {
                        format!("(*atomic:{body})")
                    };
                }
                format!("(?>{body})")
            }
            68..=77 => self.conditional(inner),
            78..=89 => self.scoped_flags(inner),
            _ => {
                // A group with a reference inside and after it.
                self.note("group");
                self.n_groups += 1;
                let number = self.n_groups;
                let body = self.alternation(inner);
                let inside =
                    if self.rng.percent(15) { self.numbered_ref(number) } else { String::new() };
                self.closed.push(number);
                format!("({body}{inside}){}", self.numbered_ref(number))
            }
        }
    }

    fn named_group(&mut self, inner: u32) -> String {
        self.note("named-group");
        self.n_groups += 1;
        let number = self.n_groups;
        let name = *self.rng.pick(&["n", "m", "n"]);
        let spellings: &[&str] = match self.dialect {
            Dialect::Python => &["(?P<{}>"],
            Dialect::Js | Dialect::Java => &["(?<{}>"],
            _ => &["(?P<{}>", "(?<{}>", "(?'{}'"],
        };
        let all = ["(?P<{}>", "(?<{}>", "(?'{}'"];
        let spelling =
            if self.foreign() { *self.rng.pick(&all) } else { *self.rng.pick(spellings) };
        let open = spelling.replace("{}", name);
        let body = self.alternation(inner);
        self.names.push(name);
        self.closed.push(number);
        format!("{open}{body})")
    }

    fn conditional(&mut self, inner: u32) -> String {
        let has = matches!(self.dialect, Dialect::Python | Dialect::Pcre | Dialect::Rust);
        if !has && !self.foreign() {
            return self.leaf();
        }
        self.note("conditional");
        let on_look = matches!(self.dialect, Dialect::Pcre | Dialect::Rust) && self.rng.percent(30);
        let condition = if on_look {
            self.note("lookahead");
            let negated = self.rng.percent(40);
            format!("(?{}{})", if negated { "!" } else { "=" }, self.sequence(inner.min(1)))
        } else if let Some(name) = self.some_name(30) {
            match self.dialect {
                Dialect::Pcre | Dialect::Rust if self.rng.percent(50) => format!("(<{name}>)"),
                _ => format!("({name})"),
            }
        } else {
            let number = 1 + self.rng.below(self.n_groups as usize + 1);
            format!("({number})")
        };
        let yes = self.alternation(inner.min(1));
        if self.rng.percent(25) {
            format!("(?{condition}{yes})")
        } else {
            let no = self.sequence(inner.min(1));
            format!("(?{condition}{yes}|{no})")
        }
    }

    /// Flag letters the dialect reads in `(?flags)` and `(?flags:...)`.
    fn flag_letters(&self) -> &'static [&'static str] {
        match self.dialect {
            Dialect::Python => &["i", "s", "m", "x", "a", "i", "-i", "i-s"],
            Dialect::Js => &["i", "m", "s", "-i", "i", "is"],
            Dialect::Java => &["i", "s", "m", "x", "u", "U", "iu", "-i", "i", "d", "dm"],
            Dialect::Pcre => &["i", "s", "m", "x", "i", "-i", "i-s", "xx", "^", "^i", "n", "n-i"],
            _ => &["i", "s", "m", "x", "U", "i", "-i", "i-s"],
        }
    }

    fn scoped_flags(&mut self, inner: u32) -> String {
        // Without modifiers in the engine, they would only show its version.
        if self.dialect == Dialect::Js && !self.js_modifiers {
            return self.leaf();
        }
        self.note("scoped-flags");
        let letters = *self.rng.pick(self.flag_letters());
        if letters.contains('i') {
            self.note("case-insensitive");
        }
        format!("(?{letters}:{})", self.alternation(inner))
    }

    fn global_flag(&mut self) -> String {
        if self.dialect == Dialect::Js && !self.foreign() {
            return String::new();
        }
        self.note("global-flags");
        let letters = *self.rng.pick(self.flag_letters());
        if letters.contains('i') {
            self.note("case-insensitive");
        }
        format!("(?{letters})")
    }

    fn numbered_ref(&mut self, number: u32) -> String {
        self.note("backref");
        if self.dialect == Dialect::Pcre && self.rng.percent(30) {
            return match self.rng.below(3) {
                0 => format!("\\g{number}"),
                1 => format!("\\g{{{number}}}"),
                _ => "\\g{-1}".to_owned(),
            };
        }
        format!("\\{number}")
    }

    /// A group name for a reference, `percent` of the time there are named groups before:
    /// mostly one of those, else any (a group written later, or none: a name ahead).
    fn some_name(&mut self, percent: u64) -> Option<&'static str> {
        let ahead = self.rng.percent(if self.names.is_empty() { 5 } else { 15 });
        if ahead {
            self.note("name-ahead");
            return Some(*self.rng.pick(&["n", "m"]));
        }
        (!self.names.is_empty() && self.rng.percent(percent))
            .then(|| *self.rng.pick(&self.names.clone()))
    }

    fn reference(&mut self) -> String {
        if let Some(name) = self.some_name(40) {
            self.note("named-backref");
            let spellings: &[&str] = match self.dialect {
                Dialect::Python => &["(?P={})"],
                Dialect::Js | Dialect::Java => &["\\k<{}>"],
                Dialect::Pcre => &["\\k<{}>", "\\k'{}'", "\\k{{}}", "\\g{{}}", "(?P={})"],
                _ => &["\\k<{}>", "(?P={})"],
            };
            let spelling = *self.rng.pick(spellings);
            return spelling.replace("{{}}", &format!("{{{name}}}")).replace("{}", name);
        }
        // Groups before, open around, or (one past the last) after the reference; before
        // there is any group, mostly a literal instead.
        if self.n_groups == 0 && self.rng.percent(80) {
            return self.literal();
        }
        let number = match self.rng.below(100) {
            0..=79 if !self.closed.is_empty() => *self.rng.pick(&self.closed.clone()),
            0..=89 if self.n_groups > 0 => 1 + self.rng.below(self.n_groups as usize) as u32,
            _ => self.n_groups + 1,
        };
        self.numbered_ref(number)
    }

    fn leaf(&mut self) -> String {
        match self.rng.below(100) {
            0..=29 => self.literal(),
            30..=34 => {
                self.note("dot");
                ".".to_owned()
            }
            35..=51 => self.class(),
            52..=59 => self.perl_class(),
            60..=65 => {
                self.note("word-boundary");
                self.rng.pick(&["\\b", "\\B", "\\b"]).to_string()
            }
            66..=73 => self.anchor(),
            74..=83 if !self.plain => self.reference(),
            84..=86 => self.global_flag(),
            87..=88 if !self.plain => self.quoted(),
            89 if !self.plain => self.comment(),
            90..=92 => self.escape(),
            93 => {
                self.note("odd");
                self.rng.pick(&["a{", "{", "a{,", "}", "]"]).to_string()
            }
            _ => String::new(),
        }
    }

    fn literal(&mut self) -> String {
        let text =
            *self.rng.pick(&["a", "b", "-", "a", "b", "ab", "A", "é", "\u{301}", " ", "\u{1F600}"]);
        if !text.is_ascii() {
            self.note("non-ascii");
        }
        text.to_owned()
    }

    fn escape(&mut self) -> String {
        self.note("escape");
        let options: &[&str] = match self.dialect {
            Dialect::Python => &["\\x61", "\\u00e9", "\\-", "\\n", "\\u0301", "\\141"],
            Dialect::Js => &["\\x61", "\\u00e9", "\\-", "\\n", "\\u0301", "\\cJ"],
            Dialect::Java => &["\\x61", "\\u00e9", "\\x{e9}", "\\-", "\\n", "\\u0301", "\\cJ"],
            Dialect::Pcre => &[
                "\\x61",
                "\\x{e9}",
                "\\-",
                "\\n",
                "\\x{301}",
                "\\o{141}",
                "\\cJ",
                "(*MARK:m)",
                "(*:m)",
            ],
            _ => &["\\x61", "\\x{e9}", "\\u00e9", "\\-", "\\n", "\\x{301}"],
        };
        self.rng.pick(options).to_string()
    }

    fn quoted(&mut self) -> String {
        if !matches!(self.dialect, Dialect::Java | Dialect::Pcre | Dialect::Rust) && !self.foreign()
        {
            return self.literal();
        }
        self.note("quoted");
        self.rng.pick(&["\\Qa-\\E", "\\Q.\\E", "\\Qb", "\\Q(a\\E"]).to_string()
    }

    fn comment(&mut self) -> String {
        if !matches!(self.dialect, Dialect::Python | Dialect::Pcre | Dialect::Rust)
            && !self.foreign()
        {
            return self.literal();
        }
        self.note("comment");
        "(?#c)".to_owned()
    }

    fn anchor(&mut self) -> String {
        self.note("anchor");
        let options: &[&str] = match self.dialect {
            Dialect::Python => &["^", "$", "\\A", "\\Z"],
            Dialect::Js => &["^", "$"],
            Dialect::Java | Dialect::Pcre => &["^", "$", "\\A", "\\z", "\\Z"],
            _ => &["^", "$", "\\A", "\\z", "\\<", "\\>"],
        };
        let all = ["^", "$", "\\A", "\\z", "\\Z"];
        if self.foreign() { *self.rng.pick(&all) } else { *self.rng.pick(options) }.to_owned()
    }

    fn perl_class(&mut self) -> String {
        self.note("perl-class");
        let common = ["\\w", "\\W", "\\d", "\\D", "\\s", "\\S", "\\w"];
        if self.rng.percent(25) {
            self.note("property");
            let options: &[&str] = match self.dialect {
                Dialect::Java => &[
                    "\\p{L}",
                    "\\p{Lu}",
                    "\\P{L}",
                    "\\p{Alpha}",
                    "\\p{M}",
                    "\\p{IsLatin}",
                    "\\p{InBasicLatin}",
                    "\\p{InCombiningDiacriticalMarks}",
                    "\\p{IsGreek}",
                    "\\p{block=BasicLatin}",
                    "\\p{blk=Latin-1 Supplement}",
                    "\\p{IsAlphabetic}",
                    "\\N{LATIN SMALL LETTER A}",
                    "\\N{hyphen-minus}",
                    "\\N{ GRINNING FACE }",
                ],
                Dialect::Js => &["\\p{L}", "\\h", "\\uD83D", "\\uDE00", "\\uD83D\\uDE00"],
                Dialect::Python => &["\\p{L}", "\\N{LATIN SMALL LETTER A}", "\\N{hyphen-minus}"],
                Dialect::Pcre => &[
                    "\\p{L}",
                    "\\p{Lu}",
                    "\\P{L}",
                    "\\p{M}",
                    "\\pL",
                    "\\N",
                    "\\N{U+61}",
                    "\\p{L&}",
                    "\\p{Xan}",
                    "\\p{Xwd}",
                    "\\P{Xsp}",
                    "\\p{Xps}",
                    "\\p{Xuc}",
                ],
                _ => &["\\p{L}", "\\p{Lu}", "\\P{L}", "\\p{M}", "\\pL"],
            };
            return self.rng.pick(options).to_string();
        }
        self.rng.pick(&common).to_string()
    }

    fn class_item(&mut self) -> String {
        let common = [
            "a",
            "b",
            "a-b",
            "A",
            "é",
            "\u{301}",
            "\\w",
            "\\d",
            "\\s",
            "\\W",
            "\\-",
            "-",
            "a-é",
            "b",
            " ",
            "\u{1F600}",
        ];
        if self.rng.percent(20) {
            let options: &[&str] = match self.dialect {
                Dialect::Java => &["\\p{L}", "\\p{Lower}", "\\P{M}", "[ab]", "[^a]", "\\Q-\\E"],
                Dialect::Pcre => &["[:alpha:]", "[:^lower:]", "[:word:]", "[:punct:]", "\\p{L}"],
                Dialect::Python => &["[", "\\b", "\\x61"],
                Dialect::Js => &["[", "\\b", "\\x61", "\\uD83D", "\\uDE00", "\\uD800-\\uDBFF"],
                _ => &["[:alpha:]", "[:^lower:]", "[ab]", "[^a]", "\\p{M}"],
            };
            self.note("class-extra");
            return self.rng.pick(options).to_string();
        }
        self.rng.pick(&common).to_string()
    }

    fn class(&mut self) -> String {
        self.note("class");
        let mut res = String::from("[");
        if self.rng.percent(30) {
            self.note("negated-class");
            res.push('^');
        }
        if self.rng.percent(5) {
            res.push(']');
        }
        let n_items = 1 + self.rng.below(3);
        for _ in 0..n_items {
            res.push_str(&self.class_item());
        }
        if self.rng.percent(15) {
            let foreign = self.foreign();
            let set_op = match self.dialect {
                Dialect::Java => Some("&&"),
                Dialect::Rust => Some(*self.rng.pick(&["&&", "--", "~~"])),
                _ if foreign => Some("&&"),
                _ => None,
            };
            if let Some(op) = set_op {
                self.note("class-set-op");
                res.push_str(op);
                let item = self.class_item();
                let negated = self.rng.percent(50);
                res.push_str(&format!("[{}{item}]", if negated { "^" } else { "" }));
            }
        }
        if self.rng.percent(4) && self.dialect == Dialect::Js {
            // `[]` and `[^]`: nothing, everything.
            return self.rng.pick(&["[]", "[^]"]).to_string();
        }
        res.push(']');
        res
    }
}
