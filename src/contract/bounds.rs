//! The bounds of an `integer` or `number` parameter: `minimum`, `maximum`,
//! `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf`, spelled and
//! meant as JSON Schema spells and means them, so that the export and an
//! MCP `inputSchema` carry them unchanged.
//!
//! Values are compared exactly, on their decimal digits, never through a
//! 64-bit float: `0.3` is a multiple of `0.1`, and `9007199254740993` is
//! above `9007199254740992`. The guard keeps each number's text as given
//! (`guard::Decimal`), so what is compared is what the program receives.

use std::cmp::Ordering;

use serde_json::{Map, Number, Value};

/// The bound keywords, in the order the docs and exports list them.
pub const BOUND_FIELDS: [&str; 5] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];

/// The most significant digits a `multipleOf` may have, so that the exact
/// remainder fits in 64-bit arithmetic.
pub const MAX_STEP_DIGITS: usize = 18;

/// A decimal number, exactly: `digits × 10^exponent`, with no leading or
/// trailing zero in `digits` (empty for zero).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactNumber {
    negative: bool,
    digits: Vec<u8>,
    exponent: i64,
}

/// An exponent this far from zero is beyond any number aigent reads (a
/// 64-bit float ends near 1e308, its subnormals near 1e-324).
const MAX_EXPONENT: i64 = 100_000;

impl ExactNumber {
    /// Reads one JSON number (`-12.50`, `1e3`); `None` for anything else,
    /// or an exponent beyond ±100,000.
    pub fn parse(text: &str) -> Option<Self> {
        if !is_json_number(text) {
            return None;
        }
        let (negative, rest) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (mantissa, exponent_text) = match rest.find(['e', 'E']) {
            Some(at) => (&rest[..at], Some(&rest[at + 1..])),
            None => (rest, None),
        };
        let mut exponent: i64 = match exponent_text {
            None => 0,
            Some(text) => {
                let (sign, digits) = match text.as_bytes().first() {
                    Some(b'-') => (-1, &text[1..]),
                    Some(b'+') => (1, &text[1..]),
                    _ => (1, text),
                };
                let digits = digits.trim_start_matches('0');
                if digits.len() > 7 {
                    return None;
                }
                sign * digits.parse::<i64>().unwrap_or(0)
            }
        };
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        exponent -= i64::try_from(fraction.len()).ok()?;
        let mut digits: Vec<u8> = whole
            .bytes()
            .chain(fraction.bytes())
            .map(|byte| byte - b'0')
            .skip_while(|digit| *digit == 0)
            .collect();
        while digits.last() == Some(&0) {
            digits.pop();
            exponent += 1;
        }
        if digits.is_empty() {
            return Some(Self::zero());
        }
        if exponent.abs() > MAX_EXPONENT {
            return None;
        }
        Some(Self {
            negative,
            digits,
            exponent,
        })
    }

    fn zero() -> Self {
        Self {
            negative: false,
            digits: Vec::new(),
            exponent: 0,
        }
    }

    pub fn from_i64(value: i64) -> Self {
        Self::parse(&value.to_string()).unwrap_or_else(Self::zero)
    }

    pub fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    pub fn is_negative(&self) -> bool {
        self.negative && !self.is_zero()
    }

    /// How many significant digits the number has.
    pub fn significant_digits(&self) -> usize {
        self.digits.len()
    }

    /// Compares the absolute values.
    fn cmp_magnitude(&self, other: &Self) -> Ordering {
        match (self.is_zero(), other.is_zero()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            (false, false) => {}
        }
        // The place of the leading digit decides, then the digits.
        let lead = |number: &Self| number.exponent + number.digits.len() as i64;
        lead(self)
            .cmp(&lead(other))
            .then_with(|| self.digits.cmp(&other.digits))
    }

    /// Whether the number is an integer multiple of `step`, exactly; `None`
    /// when `step` is not positive or has more than [`MAX_STEP_DIGITS`]
    /// significant digits.
    pub fn is_multiple_of(&self, step: &Self) -> Option<bool> {
        if step.is_zero() || step.negative || step.digits.len() > MAX_STEP_DIGITS {
            return None;
        }
        if self.is_zero() {
            return Some(true);
        }
        // self = A × 10^p and step = B × 10^q, A ending in a non-zero
        // digit: when p < q, self / step has a fractional part.
        if self.exponent < step.exponent {
            return Some(false);
        }
        let modulus: u128 = step
            .digits
            .iter()
            .fold(0u128, |acc, digit| acc * 10 + u128::from(*digit));
        let mut remainder: u128 = 0;
        for digit in &self.digits {
            remainder = (remainder * 10 + u128::from(*digit)) % modulus;
        }
        // Then the (p - q) zeros after A: × 10^(p-q), by squaring.
        let mut power = (self.exponent - step.exponent) as u128;
        let mut base = 10 % modulus;
        let mut factor = 1 % modulus;
        while power > 0 {
            if power & 1 == 1 {
                factor = factor * base % modulus;
            }
            base = base * base % modulus;
            power >>= 1;
        }
        Some((remainder * factor).is_multiple_of(modulus))
    }
}

impl Ord for ExactNumber {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.is_negative(), other.is_negative()) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.cmp_magnitude(other),
            (true, true) => other.cmp_magnitude(self),
        }
    }
}

impl PartialOrd for ExactNumber {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
pub fn is_json_number(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut index = 0;
    let digits = |index: &mut usize| {
        let start = *index;
        while bytes.get(*index).is_some_and(u8::is_ascii_digit) {
            *index += 1;
        }
        *index > start
    };
    if bytes.get(index) == Some(&b'-') {
        index += 1;
    }
    match bytes.get(index) {
        Some(b'0') => index += 1,
        Some(b'1'..=b'9') => {
            digits(&mut index);
        }
        _ => return false,
    }
    if bytes.get(index) == Some(&b'.') {
        index += 1;
        if !digits(&mut index) {
            return false;
        }
    }
    if matches!(bytes.get(index), Some(b'e' | b'E')) {
        index += 1;
        if matches!(bytes.get(index), Some(b'+' | b'-')) {
            index += 1;
        }
        if !digits(&mut index) {
            return false;
        }
    }
    index == bytes.len()
}

/// One bound: the number as the declaration wrote it (for the export and
/// messages) and its exact value.
#[derive(Debug, Clone, PartialEq)]
pub struct Bound {
    pub number: Number,
    pub exact: ExactNumber,
}

impl Bound {
    /// `None` for a number whose text is not one `ExactNumber` reads.
    pub fn new(number: Number) -> Option<Self> {
        let exact = ExactNumber::parse(&number.to_string())?;
        Some(Self { number, exact })
    }
}

/// Which bound a value breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoundKind {
    Minimum,
    Maximum,
    ExclusiveMinimum,
    ExclusiveMaximum,
    MultipleOf,
}

impl BoundKind {
    /// The keyword, as a declaration and JSON Schema spell it.
    pub fn keyword(self) -> &'static str {
        match self {
            Self::Minimum => "minimum",
            Self::Maximum => "maximum",
            Self::ExclusiveMinimum => "exclusiveMinimum",
            Self::ExclusiveMaximum => "exclusiveMaximum",
            Self::MultipleOf => "multipleOf",
        }
    }

    /// What a value must be, before the bound's number: "at least 1".
    pub fn requirement(self) -> &'static str {
        match self {
            Self::Minimum => "at least",
            Self::Maximum => "at most",
            Self::ExclusiveMinimum => "greater than",
            Self::ExclusiveMaximum => "less than",
            Self::MultipleOf => "a multiple of",
        }
    }
}

/// The bounds of one parameter; all `None` for one without any.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NumberBounds {
    pub minimum: Option<Bound>,
    pub maximum: Option<Bound>,
    pub exclusive_minimum: Option<Bound>,
    pub exclusive_maximum: Option<Bound>,
    pub multiple_of: Option<Bound>,
}

impl NumberBounds {
    /// Each bound given, with its kind, in [`BOUND_FIELDS`] order.
    pub fn each(&self) -> impl Iterator<Item = (BoundKind, &Bound)> {
        [
            (BoundKind::Minimum, &self.minimum),
            (BoundKind::Maximum, &self.maximum),
            (BoundKind::ExclusiveMinimum, &self.exclusive_minimum),
            (BoundKind::ExclusiveMaximum, &self.exclusive_maximum),
            (BoundKind::MultipleOf, &self.multiple_of),
        ]
        .into_iter()
        .filter_map(|(kind, bound)| Some((kind, bound.as_ref()?)))
    }

    pub fn is_empty(&self) -> bool {
        self.each().next().is_none()
    }

    /// The slot of `kind`.
    pub fn slot(&mut self, kind: BoundKind) -> &mut Option<Bound> {
        match kind {
            BoundKind::Minimum => &mut self.minimum,
            BoundKind::Maximum => &mut self.maximum,
            BoundKind::ExclusiveMinimum => &mut self.exclusive_minimum,
            BoundKind::ExclusiveMaximum => &mut self.exclusive_maximum,
            BoundKind::MultipleOf => &mut self.multiple_of,
        }
    }

    /// Every bound `value` breaks.
    pub fn broken_by(&self, value: &ExactNumber) -> Vec<(BoundKind, &Bound)> {
        self.each()
            .filter(|(kind, bound)| {
                let order = value.cmp(&bound.exact);
                match kind {
                    BoundKind::Minimum => order == Ordering::Less,
                    BoundKind::Maximum => order == Ordering::Greater,
                    BoundKind::ExclusiveMinimum => order != Ordering::Greater,
                    BoundKind::ExclusiveMaximum => order != Ordering::Less,
                    BoundKind::MultipleOf => value.is_multiple_of(&bound.exact) != Some(true),
                }
            })
            .collect()
    }

    /// The bounds in words: "at least 1, at most 10, a multiple of 2";
    /// empty without bounds.
    pub fn describe(&self) -> String {
        self.each()
            .map(|(kind, bound)| format!("{} {}", kind.requirement(), bound.number))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Adds each bound to a JSON Schema (or a declaration's wire form)
    /// under its keyword.
    pub fn write_into(&self, object: &mut Map<String, Value>) {
        for (kind, bound) in self.each() {
            object.insert(
                kind.keyword().to_owned(),
                Value::Number(bound.number.clone()),
            );
        }
    }

    /// Why no value can pass the bounds, when they contradict each other
    /// (a lower bound above an upper one).
    pub fn contradiction(&self) -> Option<String> {
        let lower = [
            (BoundKind::Minimum, &self.minimum),
            (BoundKind::ExclusiveMinimum, &self.exclusive_minimum),
        ];
        let upper = [
            (BoundKind::Maximum, &self.maximum),
            (BoundKind::ExclusiveMaximum, &self.exclusive_maximum),
        ];
        for (low_kind, low) in &lower {
            for (high_kind, high) in &upper {
                let (Some(low), Some(high)) = (low, high) else {
                    continue;
                };
                let both_inclusive =
                    *low_kind == BoundKind::Minimum && *high_kind == BoundKind::Maximum;
                let empty = match low.exact.cmp(&high.exact) {
                    Ordering::Greater => true,
                    Ordering::Equal => !both_inclusive,
                    Ordering::Less => false,
                };
                if empty {
                    return Some(format!(
                        "no value is both {} {} and {} {}",
                        low_kind.requirement(),
                        low.number,
                        high_kind.requirement(),
                        high.number
                    ));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(text: &str) -> ExactNumber {
        ExactNumber::parse(text).unwrap_or_else(|| panic!("{text}"))
    }

    #[test]
    fn numbers_compare_exactly() {
        let ordered = [
            "-1e3",
            "-999.5",
            "-1",
            "-0.001",
            "0",
            "1e-9",
            "0.1",
            "0.3",
            "1",
            "1.5",
            "2",
            "9007199254740992",
            "9007199254740993",
            "1e20",
            "1.5e20",
        ];
        for pair in ordered.windows(2) {
            assert!(exact(pair[0]) < exact(pair[1]), "{} < {}", pair[0], pair[1]);
        }
        for (a, b) in [
            ("1", "1.0"),
            ("100", "1e2"),
            ("0", "-0"),
            ("0.50", "5e-1"),
            ("-2.5", "-25E-1"),
        ] {
            assert_eq!(exact(a).cmp(&exact(b)), Ordering::Equal, "{a} = {b}");
        }
        for bad in ["", "+1", "1.", ".5", "0x10", "1e99999999", "NaN", "01"] {
            assert!(ExactNumber::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn multiples_are_exact() {
        for (value, step) in [
            ("0.3", "0.1"),
            ("0", "7"),
            ("-14", "7"),
            ("1e20", "5"),
            ("2.5", "0.5"),
            ("1e300", "1e-300"),
            ("123456789012345678", "2"),
            ("0.000001", "0.000001"),
        ] {
            assert_eq!(
                exact(value).is_multiple_of(&exact(step)),
                Some(true),
                "{value} / {step}"
            );
        }
        for (value, step) in [
            ("0.35", "0.1"),
            ("1", "1e10"),
            ("15", "7"),
            ("1.0000001", "1"),
            ("1e-300", "1e300"),
            ("123456789012345677", "2"),
        ] {
            assert_eq!(
                exact(value).is_multiple_of(&exact(step)),
                Some(false),
                "{value} / {step}"
            );
        }
        assert_eq!(exact("1").is_multiple_of(&exact("0")), None);
        assert_eq!(exact("1").is_multiple_of(&exact("-1")), None);
        assert_eq!(
            exact("1").is_multiple_of(&exact("1234567890123456789")),
            None
        );
    }

    fn bounds(pairs: &[(BoundKind, &str)]) -> NumberBounds {
        let mut bounds = NumberBounds::default();
        for (kind, text) in pairs {
            let number: Number = serde_json::from_str(text).unwrap();
            *bounds.slot(*kind) = Bound::new(number);
        }
        bounds
    }

    #[test]
    fn what_each_bound_refuses() {
        use BoundKind::*;
        let all = bounds(&[
            (Minimum, "1"),
            (Maximum, "10"),
            (ExclusiveMinimum, "0"),
            (ExclusiveMaximum, "10.5"),
            (MultipleOf, "0.5"),
        ]);
        let broken = |text: &str| -> Vec<BoundKind> {
            all.broken_by(&exact(text))
                .into_iter()
                .map(|(kind, _)| kind)
                .collect()
        };
        assert!(broken("1").is_empty());
        assert!(broken("10").is_empty());
        assert!(broken("2.5").is_empty());
        assert_eq!(broken("0.5"), [Minimum]);
        assert_eq!(broken("0"), [Minimum, ExclusiveMinimum]);
        assert_eq!(broken("10.5"), [Maximum, ExclusiveMaximum]);
        assert_eq!(broken("3.2"), [MultipleOf]);
        assert_eq!(
            all.describe(),
            "at least 1, at most 10, greater than 0, less than 10.5, a multiple of 0.5"
        );
        let mut schema = Map::new();
        all.write_into(&mut schema);
        assert_eq!(
            serde_json::to_string(&schema).unwrap(),
            r#"{"minimum":1,"maximum":10,"exclusiveMinimum":0,"exclusiveMaximum":10.5,"multipleOf":0.5}"#
        );
    }

    #[test]
    fn contradictions_are_found() {
        use BoundKind::*;
        assert!(
            bounds(&[(Minimum, "5"), (Maximum, "5")])
                .contradiction()
                .is_none()
        );
        assert!(
            bounds(&[(Minimum, "1"), (Maximum, "9")])
                .contradiction()
                .is_none()
        );
        for pairs in [
            &[(Minimum, "6"), (Maximum, "5")][..],
            &[(ExclusiveMinimum, "5"), (Maximum, "5")],
            &[(Minimum, "5"), (ExclusiveMaximum, "5")],
            &[(ExclusiveMinimum, "1.5"), (ExclusiveMaximum, "1.25")],
        ] {
            assert!(bounds(pairs).contradiction().is_some(), "{pairs:?}");
        }
    }
}
