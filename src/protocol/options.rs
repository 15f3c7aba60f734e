//! The engine's options, declared once: each entry has its UCI name, its Hub name, its type with
//! default and range (or choices), and the hook that applies a new value to `Settings`. Both
//! dialects print their declarations from this table and parse `setoption`/`set-param` through it.

use super::ProtocolError;
use crate::learned::EvalChoice;
use crate::search::skill::Skill;
use crate::search::SearchOptions;
use crate::variant::Variant;

/// How Hub move text numbers the squares (docs/PROTOCOL.md, "What 8x8 Hub clients send").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Frame {
    /// `pos` and moves alike in the numbering of docs/RULES.md: pydraughts 0.5.x and
    /// lidraughts-bot. For english, pydraughts' frame is that numbering turned round with colours
    /// swapped; the rules are symmetric under that mirror, so reading its text literally plays
    /// the same game.
    #[default]
    Consistent,
    /// pydraughts 0.6: `pos` in the frame above, moves in the variant's own numbering (russian
    /// 1 = a1 ... 32 = h8; english standard numbering, which is the mirror of the literal `pos`).
    Pydraughts06,
}

impl Frame {
    /// The name used by the Hub `frame` param.
    pub fn name(self) -> &'static str {
        match self {
            Frame::Consistent => "consistent",
            Frame::Pydraughts06 => "pydraughts06",
        }
    }

    /// Maps a square number between the wire and docs/RULES.md. Every mapping is an involution, so
    /// the same function reads and writes.
    pub fn map_square(self, variant: Variant, n: u32) -> u32 {
        if variant.mirrored_numbering() {
            // italian and spanish are numbered on their own mirrored board in every frame
            // (pydraughts numbers italian so), and the engine reads that numbering.
            return crate::notation::mirror_number(n);
        }
        match (self, variant) {
            (Frame::Consistent, _) => n,
            // Row reversal: pydraughts' russian (and brazilian) square 1 is a1, docs/RULES.md's
            // is b8.
            (Frame::Pydraughts06, Variant::Russian | Variant::Brazilian) => {
                (7 - (n - 1) / 4) * 4 + (n - 1) % 4 + 1
            }
            (Frame::Pydraughts06, Variant::English) => 33 - n,
            // The others are numbered as docs/RULES.md numbers them (mirrored, for italian).
            (Frame::Pydraughts06, _) => n,
        }
    }
}

/// Every setting that outlives one command.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Settings {
    /// The rules being played.
    pub variant: Variant,
    /// Options passed to the searcher.
    pub search: SearchOptions,
    /// UCI `Ponder`: only tells the engine that the GUI may ponder; nothing changes in the search.
    pub ponder: bool,
    /// Hub square frame.
    pub frame: Frame,
    /// Where the endgame databases are: empty for the default directory (used if databases
    /// are there), `off` for none (docs/EGTB.md).
    pub egtb_path: String,
}

/// An option's type, default and allowed values.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A boolean (`check` in UCI, `bool` in Hub).
    Check(bool),
    /// An integer in `min..=max` (`spin` / `int`).
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// One of a list of words (`combo` / `enum`); `aliases` are accepted and mapped to a choice.
    Combo {
        /// Default choice.
        default: &'static str,
        /// The choices.
        vars: &'static [&'static str],
        /// Other accepted words and the choice each stands for.
        aliases: &'static [(&'static str, &'static str)],
    },
    /// An action without a value (UCI only).
    Button,
    /// Free text, such as a path (`string` in both); empty by default.
    Text,
}

/// A parsed option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// For `Check`.
    Bool(bool),
    /// For `Spin`.
    Int(i64),
    /// For `Combo`: the canonical choice.
    Word(&'static str),
    /// For `Button`.
    Press,
    /// For `Text`.
    Text(String),
}

/// What else must happen after a hook changed `Settings`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing beyond the settings.
    None,
    /// The searcher's options changed.
    Search,
    /// The variant changed: the position goes back to the new variant's start.
    Variant,
    /// The searcher must forget what it learnt.
    ClearHash,
    /// The endgame database path changed.
    Databases,
}

/// One option.
pub struct OptionSpec {
    /// Name in the UCI-style dialect, if it has one there.
    pub uci: Option<&'static str>,
    /// Name in Hub, if it has one there.
    pub hub: Option<&'static str>,
    /// Type, default and range.
    pub kind: Kind,
    /// Applies a valid value.
    pub apply: fn(&mut Settings, Value) -> Effect,
    /// The current value as text (Hub prints current values).
    pub current: fn(&Settings) -> String,
}

fn int(v: Value) -> i64 {
    if let Value::Int(n) = v {
        n
    } else {
        0
    }
}

/// The options table. Ranges are what the searcher can honour: the hash is capped so that a typo
/// cannot ask for terabytes.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        uci: Some("Variant"),
        hub: Some("variant"),
        kind: Kind::Combo {
            default: "russian",
            vars: &[
                "russian",
                "english",
                "brazilian",
                "pool",
                "italian",
                "spanish",
                "czech",
            ],
            aliases: &[
                ("american", "english"),
                ("checkers", "english"),
                ("shashki", "russian"),
            ],
        },
        apply: |s, v| {
            let new = match v {
                Value::Word(name) => name.parse().unwrap_or(s.variant),
                _ => s.variant,
            };
            let changed = new != s.variant;
            s.variant = new;
            if changed {
                Effect::Variant
            } else {
                Effect::None
            }
        },
        current: |s| s.variant.name().to_string(),
    },
    OptionSpec {
        uci: Some("Eval"),
        hub: Some("eval"),
        kind: Kind::Combo {
            default: "auto",
            vars: &EvalChoice::NAMES,
            aliases: &[("hand-written", "handwritten")],
        },
        apply: |s, v| {
            s.search.eval = match v {
                Value::Word(w) => w.parse().unwrap_or_default(),
                _ => EvalChoice::Auto,
            };
            Effect::Search
        },
        current: |s| s.search.eval.name().to_string(),
    },
    OptionSpec {
        uci: None,
        hub: Some("frame"),
        kind: Kind::Combo {
            default: "consistent",
            vars: &["consistent", "pydraughts06"],
            aliases: &[("hub", "consistent"), ("mixed", "pydraughts06")],
        },
        apply: |s, v| {
            s.frame = if v == Value::Word("pydraughts06") {
                Frame::Pydraughts06
            } else {
                Frame::Consistent
            };
            Effect::None
        },
        current: |s| s.frame.name().to_string(),
    },
    OptionSpec {
        uci: Some("Hash"),
        hub: Some("hash"),
        kind: Kind::Spin {
            default: 64,
            min: 1,
            max: 65536,
        },
        apply: |s, v| {
            s.search.hash_mb = int(v) as usize;
            Effect::Search
        },
        current: |s| s.search.hash_mb.to_string(),
    },
    OptionSpec {
        uci: Some("Clear Hash"),
        hub: None,
        kind: Kind::Button,
        apply: |_, _| Effect::ClearHash,
        current: |_| String::new(),
    },
    OptionSpec {
        uci: Some("Threads"),
        hub: Some("threads"),
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 512,
        },
        apply: |s, v| {
            s.search.threads = int(v) as usize;
            Effect::Search
        },
        current: |s| s.search.threads.to_string(),
    },
    OptionSpec {
        uci: Some("Ponder"),
        hub: None,
        kind: Kind::Check(false),
        apply: |s, v| {
            s.ponder = v == Value::Bool(true);
            Effect::None
        },
        current: |s| s.ponder.to_string(),
    },
    OptionSpec {
        uci: Some("MultiPV"),
        hub: Some("multipv"),
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 64,
        },
        apply: |s, v| {
            s.search.multipv = int(v) as usize;
            Effect::Search
        },
        current: |s| s.search.multipv.to_string(),
    },
    OptionSpec {
        uci: Some("Skill"),
        hub: Some("skill"),
        kind: Kind::Combo {
            default: "full",
            vars: &crate::search::skill::NAMES,
            aliases: &[("max", "full"), ("maximum", "full")],
        },
        apply: |s, v| {
            s.search.skill = match v {
                Value::Word(w) => Skill::from_name(w).unwrap_or_default(),
                _ => Skill::FULL,
            };
            Effect::Search
        },
        current: |s| s.search.skill.name().to_string(),
    },
    OptionSpec {
        uci: Some("MoveOverhead"),
        hub: Some("move-overhead"),
        kind: Kind::Spin {
            default: 50,
            min: 0,
            max: 5000,
        },
        apply: |s, v| {
            s.search.move_overhead_ms = int(v) as u64;
            Effect::Search
        },
        current: |s| s.search.move_overhead_ms.to_string(),
    },
    OptionSpec {
        uci: Some("EGTBPath"),
        hub: Some("egtb-path"),
        kind: Kind::Text,
        apply: |s, v| {
            s.egtb_path = match v {
                Value::Text(t) => t,
                _ => String::new(),
            };
            Effect::Databases
        },
        current: |s| s.egtb_path.clone(),
    },
];

impl Settings {
    /// The settings with every option at its default.
    pub fn defaults() -> Settings {
        let mut s = Settings::default();
        for spec in OPTIONS {
            let v = match spec.kind {
                Kind::Check(b) => Value::Bool(b),
                Kind::Spin { default, .. } => Value::Int(default),
                Kind::Combo { default, .. } => Value::Word(default),
                // The databases are looked for once the engine starts, not per option.
                Kind::Button | Kind::Text => continue,
            };
            (spec.apply)(&mut s, v);
        }
        s
    }
}

/// Finds an option by its name in one dialect, ignoring case as UCI asks.
pub fn find(name: &str, hub: bool) -> Result<&'static OptionSpec, ProtocolError> {
    let name = name.trim();
    OPTIONS
        .iter()
        .find(|o| if hub { o.hub } else { o.uci }.is_some_and(|n| n.eq_ignore_ascii_case(name)))
        .ok_or_else(|| ProtocolError::UnknownOption(name.to_string()))
}

impl OptionSpec {
    /// The name in the given dialect.
    pub fn name(&self, hub: bool) -> &'static str {
        if hub { self.hub } else { self.uci }.unwrap_or("")
    }

    /// Reads a value for this option; `None` is a missing value (fine only for a button).
    pub fn parse(&self, hub: bool, text: Option<&str>) -> Result<Value, ProtocolError> {
        let name = self.name(hub);
        let bad = |expected: String| ProtocolError::BadValue {
            what: format!("option {name}"),
            value: text.unwrap_or("").to_string(),
            expected,
        };
        let text = text.map(str::trim);
        match self.kind {
            // A button is pressed, not set: a value means the command was misread.
            Kind::Button => match text {
                None | Some("") => Ok(Value::Press),
                Some(_) => Err(bad("no value: a button takes none".into())),
            },
            Kind::Check(_) => match text.map(str::to_ascii_lowercase).as_deref() {
                Some("true") => Ok(Value::Bool(true)),
                Some("false") => Ok(Value::Bool(false)),
                _ => Err(bad("true or false".into())),
            },
            Kind::Spin { min, max, .. } => match text.and_then(|t| t.parse::<i64>().ok()) {
                Some(n) if (min..=max).contains(&n) => Ok(Value::Int(n)),
                _ => Err(bad(format!("an integer from {min} to {max}"))),
            },
            // UCI GUIs send `<empty>` for an empty string.
            Kind::Text => Ok(Value::Text(
                text.filter(|t| *t != "<empty>").unwrap_or("").to_string(),
            )),
            Kind::Combo { vars, aliases, .. } => {
                let t = text.unwrap_or("");
                let direct = vars.iter().find(|v| v.eq_ignore_ascii_case(t)).copied();
                let alias = aliases
                    .iter()
                    .find(|(a, _)| a.eq_ignore_ascii_case(t))
                    .map(|(_, v)| *v);
                direct
                    .or(alias)
                    .map(Value::Word)
                    .ok_or_else(|| bad(format!("one of: {}", vars.join(" "))))
            }
        }
    }

    /// The UCI declaration line.
    pub fn uci_line(&self) -> String {
        let name = self.name(false);
        match self.kind {
            Kind::Check(d) => format!("option name {name} type check default {d}"),
            Kind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Combo { default, vars, .. } => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            Kind::Button => format!("option name {name} type button"),
            Kind::Text => format!("option name {name} type string default <empty>"),
        }
    }

    /// The Hub declaration line with the current value.
    pub fn hub_line(&self, settings: &Settings) -> String {
        let name = self.name(true);
        let value = (self.current)(settings);
        match self.kind {
            Kind::Check(_) => format!("param name={name} value={value} type=bool"),
            Kind::Spin { min, max, .. } => {
                format!("param name={name} value={value} type=int min={min} max={max}")
            }
            Kind::Combo { vars, .. } => format!(
                "param name={name} value={value} type=enum values=\"{}\"",
                vars.join(" ")
            ),
            Kind::Button => String::new(),
            // Hub quotes a value with spaces (or none) in double quotes.
            Kind::Text if value.is_empty() || value.contains(char::is_whitespace) => {
                format!("param name={name} value=\"{value}\" type=string")
            }
            Kind::Text => format!("param name={name} value={value} type=string"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_searcher() {
        let s = Settings::defaults();
        assert_eq!(s.variant, Variant::Russian);
        assert_eq!(s.search, SearchOptions::default());
        assert_eq!(s.frame, Frame::Consistent);
    }

    #[test]
    fn values_are_checked() {
        let hash = find("hash", false).unwrap();
        assert_eq!(hash.parse(false, Some("128")).unwrap(), Value::Int(128));
        assert!(hash.parse(false, Some("0")).is_err());
        assert!(hash.parse(false, Some("99999999999999999999999")).is_err());
        let v = find("variant", true).unwrap();
        assert_eq!(
            v.parse(true, Some("American")).unwrap(),
            Value::Word("english")
        );
        assert!(v.parse(true, Some("normal")).is_err());
        assert!(find("frame", false).is_err());
        let clear = find("clear hash", false).unwrap();
        assert_eq!(clear.parse(false, None).unwrap(), Value::Press);
        let e = clear.parse(false, Some("5")).unwrap_err().to_string();
        assert_eq!(
            e,
            "option Clear Hash: bad value '5' (expected no value: a button takes none)"
        );
    }

    #[test]
    fn frames_are_involutions() {
        for f in [Frame::Consistent, Frame::Pydraughts06] {
            for v in Variant::ALL {
                for n in 1..=32 {
                    assert_eq!(f.map_square(v, f.map_square(v, n)), n);
                }
            }
        }
        // docs/PROTOCOL.md: pydraughts 0.6 russian 9-13 (a3-b4) is 21-17 in docs/RULES.md.
        assert_eq!(Frame::Pydraughts06.map_square(Variant::Russian, 9), 21);
        assert_eq!(Frame::Pydraughts06.map_square(Variant::Russian, 13), 17);
    }
}
