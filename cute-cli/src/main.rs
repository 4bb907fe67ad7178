//! `cute`: evaluate and draw CuTe layout expressions.
//!
//! ```text
//! cute 'composition((6,2):(8,2), (4,3):(3,1))'      # prints ((2,2),3):((24,2),8)
//! cute --show '(2,2):(1,2)'                         # the layout and CuTe's print_layout grid
//! printf '%s\n' 'size(8:1)' 'rank(8)' | cute --batch  # one output line per input line
//! cute --svg 'raked_product((3,4):(4,1), (2,5):(1,2))' > raked.svg
//! cute --html --tv '(16,16):(16,1)' '(4,4):(4,1)' --highlight-thread 0 > tv.html
//! cute --suggest-swizzle '(8,32):(32,1)' --write '(32,8):(8,1)' --read '(32,8):(1,32)'
//! cute --mma SM80_16x8x16_F32F16F16F32_TN --atom-layout '(2,2,1)' --svg > mma.svg
//! cute --copy SM75_U32x4_LDSM_N --thr-layout '(32,1)' --val-layout '(1,8)'
//! ```
//!
//! The tool knows no operation names: it hands the text to
//! [`cute_dynamic::eval`] and prints the [`Value`] it gets back, so every
//! operation of the evaluator is available here.
//!
//! Exit status: 0 on success; 2 on a bad expression (a message, the
//! expression and a caret under the offending column go to stderr), on bad
//! command-line arguments, and in `--batch` mode when at least one line was an
//! error; 1 when standard input cannot be read or standard output cannot be
//! written. A closed standard output (`cute ... | head -1`) ends the tool
//! quietly with status 0.

#![forbid(unsafe_code)]

use clap::{Arg, ArgAction, ArgGroup, Command};
use cute_dynamic::{
    CopyAtom, EvalError, Figure, Grid, IntTuple, Layout, MmaAtom, Tiler, Value, eval, make_tiled_copy, make_tiled_mma,
    print_html, print_html_figure, print_latex, print_latex_figure, print_layout, print_svg, print_svg_figure,
};
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

/// The largest picture `--show` draws, in cells. Beyond it the value is
/// printed and the grid is left out (with a note on stderr): a grid of a
/// million cells is already several megabytes of text.
const MAX_PICTURE_CELLS: i64 = 1 << 20;

/// The most (thread, value) accesses `--banks` examines.
const MAX_BANK_ACCESSES: i64 = 1 << 24;

/// The status of a bad expression or bad arguments.
const EXIT_BAD_INPUT: u8 = 2;
/// The status of an I/O failure other than a closed standard output.
const EXIT_IO: u8 = 1;

/// The message of a blank line in `--batch` mode (and of a blank `EXPR`).
const EMPTY_EXPRESSION: &str = "empty expression";

const ABOUT: &str = "Evaluate and draw CuTe layout expressions (CuTe's layout algebra, cute-rs)";

const AFTER_HELP: &str = "\
Syntax:
  layouts  (4,8):(1,4)   12:1   ((2,2),(4,2)):((1,8),(2,16))   (shape:stride)
  tuples   4   (4,8)   (2,(3,_))          ('_' marks a free mode for slice)
  tilers   <3:3, (2,4):(1,8)>             (one tile per mode)
  calls    name(arg, ...), nested freely; whitespace is ignored
  descriptors  (1@0, 4/2@1)  ((1@0, 8@1), 1@2)   (count[/den]@dim{@dim}; normalized)
  swizzles     Sw<3,4,3> (CuTe)   BitFieldXor<3,4,3> (bits [S,S+B) into [M,M+B))
               composition(Sw<3,4,3>, (8,64):(64,1)) is Sw<3,4,3> o 0 o (8,64):(64,1)

Operations (whatever cute_dynamic::eval knows; these at the time of writing):
  size cosize rank depth shape stride flatten get make_layout eval slice
  coalesce filter composition complement right_inverse left_inverse
  logical_divide zipped_divide tiled_divide flat_divide logical_product
  zipped_product tiled_product flat_product blocked_product raked_product
  max_common_vector max_common_layout is_admissible make_layout_tv
  make_identity_layout product prefix_product inner_product shape_div

Examples:
  $ cute 'composition((6,2):(8,2), (4,3):(3,1))'
  ((2,2),3):((24,2),8)
  $ cute 'complement(4:2, 24)'
  (2,3):(1,8)
  $ cute 'coalesce((2,(1,6)):(1,(6,2)))'
  12:1
  $ cute 'eval((4,8):(1,4), (2,5))'
  22
  $ cute 'slice(((3,2),((2,3),2)):((4,1),((2,15),100)), (2,((0,_),_)))'
  {8} o (3,2):(15,100)
  $ cute 'logical_divide((9,(4,8)):(59,(13,1)), <3:3, (2,4):(1,8)>)'
  ((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))
  $ cute 'make_layout_tv((2,3):(3,1), (2,2):(2,1))'
  ((3,2),(2,2)):((8,2),(4,1)) on tile (4,6)
  $ cute 'composition(Sw<3,4,3>, (8,64):(64,1))'
  Sw<3,4,3> o 0 o (8,64):(64,1)
  $ cute --show 'composition((6,2):(8,2), (4,3):(3,1))'
  $ cute --svg 'raked_product((3,4):(4,1), (2,5):(1,2))' > raked.svg
  $ cute --html --tv '(16,16):(16,1)' '(4,4):(4,1)' --highlight-thread 0 > tv.html
  $ printf '%s\\n' 'size((4,8):(1,4))' 'rank(4:1' | cute --batch
  32
  error: expected ',' or ')' at column 9, found end of input

--batch writes exactly one line per input line: the value, or
'error: <message>'. A blank line gives 'error: empty expression'; a line that
is not UTF-8 gives 'error: line is not valid UTF-8'. Lines may end in \\r\\n.

Exit status: 0 on success; 2 on a bad expression (message, expression and a
caret under the column go to stderr), on bad arguments, and for --batch when
any line was an error (after all lines are done); 1 if stdin cannot be read or
stdout cannot be written. --show draws at most 1048576 cells; for a larger
layout it prints the value and a note on stderr.

Pictures: --svg, --html (one self-contained page: legend, tooltip on hover)
and --latex (CuTe's print_latex TikZ) draw the value on stdout: a layout,
a swizzled layout (its inner layout's grid, each cell swizzled),
a slice's sublayout, or a thread-value layout (make_layout_tv, or
--tv THR VAL for 'make_layout_tv(THR, VAL)'). Rows are mode 0, columns
the other modes together (a rank-1 layout is one column); offsets are
shaded by offset mod 8, thread-value cells coloured by thread (CuTe's 8
colours; a hue each beyond 8 threads; TikZ by thread mod 8 as CuTe) and
labelled T<t> V<v>. Up to 32x32 cells are labelled; larger grids are small
squares with rulers every 8; at most 65536 cells. --highlight-thread K marks
thread K's cells (thread-value pictures only). A value that cannot be drawn
is an error (status 2).


Atoms (CuTe's MMA_Atom/TiledMMA and Copy_Atom/TiledCopy):
  --mma ATOM [--atom-layout L] [--permutation T]
      make_tiled_mma(ATOM, L, T); prints the tiled MMA as CuTe's print, then
      its get_layoutA_TV, get_layoutB_TV, get_layoutC_TV and tile_size_mnk.
      ATOM: SM70_8x8x4_F32F16F16F32_NT, SM80_16x8x8_F32F16F16F32_TN,
      SM80_16x8x16_F32F16F16F32_TN, SM90_64x8x16_F32F16F16_SS, UniversalFMA,
      SimdFMA<W> (one thread, W lanes down a column of C). L: the atoms over
      (M,N,K), a layout or a shape (column-major; default 1:0, one atom).
      T: permutations of M, N, K, a tiler such as '<(4,4,2):(1,8,4),32,4>'
      (modes left out are CuTe's _).
  --copy ATOM --thr-layout THR --val-layout VAL [--value-bits N]
      make_tiled_copy(Copy_Atom<ATOM, N-bit values>, THR, VAL); prints the
      tiled copy as CuTe's print, then get_layoutS_TV and get_layoutD_TV.
      ATOM: SM75_U32x4_LDSM_N, SM80_CP_ASYNC_CACHEALWAYS<uint128_t>,
      UniversalCopy<uintB_t> (B bits a copy). THR, VAL: layouts or shapes.
      N: 16 by default (half_t).
  With --svg, --html or --latex, the tiled MMA is drawn as CuTe's
  print_latex draws it (A on the left, B on top, transposed, C in the
  middle) and the tiled copy as source (left) and destination (right),
  each cell T<thread> V<value> coloured by thread.
  $ cute --mma SM80_16x8x16_F32F16F16F32_TN --atom-layout '(2,2,1)' --svg > mma.svg
  $ cute --copy SM75_U32x4_LDSM_N --thr-layout '(32,1)' --val-layout '(1,8)' --latex > copy.tex

--banks reads EXPR as a map from thread index (or (thread, value), rank 2)
to element offsets and prints, per 32 threads, the shared-memory wavefronts
(32 banks of 4 bytes; a request takes as many wavefronts as the most distinct
words it reads in one bank) and the ideal (distinct words / 32, rounded up).

--suggest-swizzle LAYOUT --write TV --read TV [--elem-bytes N] searches the
swizzle of a shared-memory tile. LAYOUT maps the tile's coordinates to element
offsets; each TV (a layout, or make_layout_tv(THR, VAL) on a tile of LAYOUT's
modes) maps (thread, value) to the tile's coordinate index, for the pattern
that writes the tile and the one that reads it. Each candidate, every
Sw<B,M,S> of element offsets with its bits below the cosize's and CuTe's
SW32/SW64/SW128 atoms (Sw<B,4,3> of bytes, converted to elements), is
measured as --banks measures (wavefronts of each phase, summed over its
requests) with the widest vector each thread can use. Those conflict-free in
both phases are listed, ranked: fewest wavefronts, widest vectors, smallest B.
  $ cute --suggest-swizzle '(8,32):(32,1)' --write '(32,8):(8,1)' --read '(32,8):(1,32)'";

/// The command-line interface.
fn command() -> Command {
    Command::new("cute")
        .version(env!("CARGO_PKG_VERSION"))
        .about(ABOUT)
        .after_help(AFTER_HELP)
        .allow_negative_numbers(true)
        .arg(
            Arg::new("expr")
                .value_name("EXPR")
                .help("The expression to evaluate, e.g. 'complement(4:2, 24)' (quote it for the shell)")
                .required_unless_present_any(["batch", "tv", "suggest-swizzle", "mma", "copy"]),
        )
        .arg(
            Arg::new("show")
                .short('s')
                .long("show")
                .action(ArgAction::SetTrue)
                .help("Also draw the value: CuTe's print_layout grid for a layout or a slice's sublayout"),
        )
        .arg(Arg::new("banks").long("banks").action(ArgAction::SetTrue).conflicts_with_all(["batch", "show"]).help(
            "Report shared-memory bank conflicts of EXPR, a layout (or swizzled layout) from \
                     (thread, value) (rank 2) or thread index to element offsets: wavefronts per 32 threads, \
                     32 banks x 4 bytes",
        ))
        .arg(
            Arg::new("elem-bytes")
                .long("elem-bytes")
                .value_name("N")
                .value_parser(clap::value_parser!(i64).range(1..=1024))
                .default_value("4")
                .requires("bank-reports")
                .help("Bytes per element for --banks and --suggest-swizzle"),
        )
        .arg(
            Arg::new("suggest-swizzle")
                .long("suggest-swizzle")
                .value_name("LAYOUT")
                .conflicts_with_all(["expr", "batch", "show", "picture", "tv", "banks"])
                .requires_all(["write", "read"])
                .help(
                    "Search the swizzle Sw<B,M,S> of the shared-memory tile LAYOUT (coordinates to element \
                     offsets) that --write and --read use without bank conflicts",
                ),
        )
        .arg(
            Arg::new("write")
                .long("write")
                .value_name("TV")
                .requires("suggest-swizzle")
                .help("The pattern that writes the tile: (thread, value) to the tile's coordinate index"),
        )
        .arg(
            Arg::new("read")
                .long("read")
                .value_name("TV")
                .requires("suggest-swizzle")
                .help("The pattern that reads the tile: (thread, value) to the tile's coordinate index"),
        )
        .group(ArgGroup::new("bank-reports").args(["banks", "suggest-swizzle"]).multiple(false))
        .arg(
            Arg::new("batch")
                .short('b')
                .long("batch")
                .action(ArgAction::SetTrue)
                .conflicts_with_all(["expr", "show", "picture", "tv"])
                .help("Read one expression per line on stdin; write one line per input line"),
        )
        .arg(
            Arg::new("svg")
                .long("svg")
                .action(ArgAction::SetTrue)
                .help("Write the value's picture as SVG to stdout"),
        )
        .arg(
            Arg::new("html")
                .long("html")
                .action(ArgAction::SetTrue)
                .help("Write the value's picture as a self-contained HTML page (legend, tooltip on hover)"),
        )
        .arg(
            Arg::new("latex")
                .long("latex")
                .action(ArgAction::SetTrue)
                .help("Write the value's picture as CuTe's print_latex standalone TikZ document"),
        )
        .group(ArgGroup::new("picture").args(["svg", "html", "latex"]).multiple(false).conflicts_with("show"))
        .arg(
            Arg::new("tv")
                .long("tv")
                .num_args(2)
                .value_names(["THR", "VAL"])
                .allow_negative_numbers(true)
                .conflicts_with("expr")
                .help("Evaluate make_layout_tv(THR, VAL): threads' and values' layouts, e.g. '(16,16):(16,1)' '(4,4):(4,1)'"),
        )
        .arg(
            Arg::new("mma")
                .long("mma")
                .value_name("ATOM")
                .conflicts_with_all(["expr", "tv", "batch", "banks", "show", "copy"])
                .help("Print (or draw) make_tiled_mma(ATOM, --atom-layout, --permutation), e.g. SM80_16x8x16_F32F16F16F32_TN"),
        )
        .arg(
            Arg::new("atom-layout")
                .long("atom-layout")
                .value_name("L")
                .allow_negative_numbers(true)
                .requires("mma")
                .help("The layout (or shape) of the atoms over (M,N,K) for --mma, e.g. '(2,2,1)'; default 1:0"),
        )
        .arg(
            Arg::new("permutation")
                .long("permutation")
                .value_name("T")
                .allow_negative_numbers(true)
                .requires("mma")
                .help("Permutations of M, N, K for --mma, a tiler, e.g. '<(4,4,2):(1,8,4),32,4>'"),
        )
        .arg(
            Arg::new("copy")
                .long("copy")
                .value_name("ATOM")
                .conflicts_with_all(["expr", "tv", "batch", "banks", "show"])
                .requires_all(["thr-layout", "val-layout"])
                .help("Print (or draw) make_tiled_copy(ATOM, --thr-layout, --val-layout), e.g. SM75_U32x4_LDSM_N"),
        )
        .arg(
            Arg::new("thr-layout")
                .long("thr-layout")
                .value_name("THR")
                .allow_negative_numbers(true)
                .requires("copy")
                .help("The threads' layout (m,n) -> thread for --copy, a layout or a shape"),
        )
        .arg(
            Arg::new("val-layout")
                .long("val-layout")
                .value_name("VAL")
                .allow_negative_numbers(true)
                .requires("copy")
                .help("Each thread's values' layout (m,n) -> value for --copy, a layout or a shape"),
        )
        .arg(
            Arg::new("value-bits")
                .long("value-bits")
                .value_name("N")
                .value_parser(clap::value_parser!(i64).range(1..=1024))
                .default_value("16")
                .requires("copy")
                .help("Bits of one value for --copy (CuTe's Copy_Atom<ATOM, T>: 16 for half_t)"),
        )
        .arg(
            Arg::new("highlight")
                .long("highlight-thread")
                .value_name("K")
                .value_parser(clap::value_parser!(i64))
                .requires("picture")
                .help("Mark thread K's cells in a thread-value picture"),
        )
}

/// Which picture to write.
#[derive(Clone, Copy)]
enum Format {
    /// The value's text (with `--show`, CuTe's `print_layout` grid).
    Text {
        show: bool,
    },
    Svg,
    Html,
    Latex,
}

/// What went wrong while writing or reading.
enum Failure {
    /// Standard output was closed: stop quietly.
    BrokenPipe,
    /// Any other I/O error, with what was being done.
    Io(&'static str, io::Error),
}

impl Failure {
    fn writing(e: io::Error) -> Failure {
        if e.kind() == io::ErrorKind::BrokenPipe { Failure::BrokenPipe } else { Failure::Io("writing stdout", e) }
    }

    fn exit(self) -> ExitCode {
        match self {
            Failure::BrokenPipe => ExitCode::SUCCESS,
            Failure::Io(what, e) => {
                let _ = writeln!(io::stderr(), "error: {what}: {e}");
                ExitCode::from(EXIT_IO)
            }
        }
    }
}

fn main() -> ExitCode {
    let matches = match command().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            // `--help` and `--version` come here too (status 0); a failed
            // write of the help (closed pipe) is not worth a panic.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(EXIT_BAD_INPUT));
        }
    };
    let format = if matches.get_flag("svg") {
        Format::Svg
    } else if matches.get_flag("html") {
        Format::Html
    } else if matches.get_flag("latex") {
        Format::Latex
    } else {
        Format::Text { show: matches.get_flag("show") }
    };
    let highlight = matches.get_one::<i64>("highlight").copied();
    // `--tv THR VAL` is `make_layout_tv(THR, VAL)`, each argument read on
    // its own so that an error points into the text the user typed;
    // otherwise `required_unless_present_any` makes EXPR present here.
    let input = match matches.get_many::<String>("tv") {
        Some(tv) => Input::Tv(tv.cloned().collect()),
        None => Input::Expr(matches.get_one::<String>("expr").cloned().unwrap_or_default()),
    };
    // Options of --mma and --copy without them: clap does not enforce
    // `requires` beside an EXPR that the required option conflicts with.
    let given = |id: &str| matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
    for (owner, options) in
        [("mma", &["atom-layout", "permutation"][..]), ("copy", &["thr-layout", "val-layout", "value-bits"][..])]
    {
        if let Some(o) = options.iter().find(|o| given(o) && !given(owner)) {
            let _ = writeln!(io::stderr(), "error: --{o} goes with --{owner}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    }
    let atom = if let Some(name) = matches.get_one::<String>("mma") {
        let text = |id: &str| matches.get_one::<String>(id).cloned();
        Some(AtomSpec::Mma { name: name.clone(), layout: text("atom-layout"), permutation: text("permutation") })
    } else {
        matches.get_one::<String>("copy").map(|name| {
            let text = |id: &str| matches.get_one::<String>(id).cloned().unwrap_or_default();
            AtomSpec::Copy {
                name: name.clone(),
                thr: text("thr-layout"),
                val: text("val-layout"),
                value_bits: matches.get_one::<i64>("value-bits").copied().unwrap_or(16),
            }
        })
    };
    let result = if let Some(atom) = atom {
        run_atom(&atom, format, highlight)
    } else if matches.get_flag("batch") {
        run_batch()
    } else if matches.get_flag("banks") {
        run_banks(&input, matches.get_one::<i64>("elem-bytes").copied().unwrap_or(4))
    } else if let Some(tile) = matches.get_one::<String>("suggest-swizzle") {
        // `requires_all` makes --write and --read present here.
        let arg = |name: &str| matches.get_one::<String>(name).cloned().unwrap_or_default();
        let elem_bytes = matches.get_one::<i64>("elem-bytes").copied().unwrap_or(4);
        run_suggest_swizzle(tile, &arg("write"), &arg("read"), elem_bytes)
    } else {
        run_one(&input, format, highlight)
    };
    match result {
        Ok(code) => code,
        Err(f) => f.exit(),
    }
}

/// What the command line asks to evaluate: an expression, or `--tv THR VAL`.
enum Input {
    Expr(String),
    Tv(Vec<String>),
}

impl Input {
    /// The expression the input stands for, as the user would write it.
    fn text(&self) -> String {
        match self {
            Input::Expr(text) => text.clone(),
            Input::Tv(args) => format!("make_layout_tv({})", args.join(", ")),
        }
    }

    /// The value, or the report of the first error against the text it is
    /// in (for `--tv`, the argument that has it, named).
    fn value(&self) -> Result<Value, String> {
        match self {
            Input::Expr(text) => evaluate(text).map_err(|e| error_report(text, &e)),
            Input::Tv(args) => {
                let mut layouts = Vec::with_capacity(2);
                for (name, text) in ["THR", "VAL"].iter().zip(args) {
                    match evaluate(text) {
                        Ok(Value::Layout(l)) => layouts.push(l),
                        Ok(other) => {
                            return Err(format!(
                                "error: --tv {name} must be a layout, got {}\n",
                                one_line(&other.to_string())
                            ));
                        }
                        Err(e) => return Err(format!("in --tv {name}: {}", error_report(text, &e))),
                    }
                }
                match cute_dynamic::make_layout_tv(&layouts[0], &layouts[1]) {
                    Ok((tv, tiler)) => Ok(Value::LayoutTv { tv, tiler }),
                    Err(e) => Err(format!("error: {}: {}\n", self.text(), one_line(&e.to_string()))),
                }
            }
        }
    }
}

/// The input's value, or `None` once its error report is on stderr.
fn value_or_report(input: &Input) -> Option<Value> {
    match input.value() {
        Ok(v) => Some(v),
        Err(report) => {
            let _ = io::stderr().write_all(report.as_bytes());
            None
        }
    }
}

/// `cute [--show | --svg | --html | --latex] EXPR`.
fn run_one(input: &Input, format: Format, highlight: Option<i64>) -> Result<ExitCode, Failure> {
    let Some(value) = value_or_report(input) else {
        return Ok(ExitCode::from(EXIT_BAD_INPUT));
    };
    let text = match format {
        Format::Text { show: true } => picture(&value),
        Format::Text { show: false } => format!("{value}\n"),
        Format::Svg | Format::Html | Format::Latex => match drawing(&value, format, highlight) {
            Ok(t) => t,
            Err(message) => {
                let _ = writeln!(io::stderr(), "error: {}", one_line(&message));
                return Ok(ExitCode::from(EXIT_BAD_INPUT));
            }
        },
    };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(Failure::writing)?;
    Ok(ExitCode::SUCCESS)
}

/// What `--mma` or `--copy` asks for, as typed.
enum AtomSpec {
    Mma { name: String, layout: Option<String>, permutation: Option<String> },
    Copy { name: String, thr: String, val: String, value_bits: i64 },
}

/// `cute --mma ATOM ...` and `cute --copy ATOM ...`: the tiled atom's text
/// (CuTe's print and its thread-value layouts), or its picture.
fn run_atom(spec: &AtomSpec, format: Format, highlight: Option<i64>) -> Result<ExitCode, Failure> {
    let (text, figure) = match tiled_atom(spec) {
        Ok(t) => t,
        Err(report) => {
            let _ = io::stderr().write_all(report.as_bytes());
            return Ok(ExitCode::from(EXIT_BAD_INPUT));
        }
    };
    let out_text = match format {
        Format::Text { .. } => text,
        _ => {
            if let Some(k) = highlight {
                let t = figure.threads();
                if !(0..t).contains(&k) {
                    let _ = writeln!(io::stderr(), "error: --highlight-thread {k}: the thread indices are 0..{t}");
                    return Ok(ExitCode::from(EXIT_BAD_INPUT));
                }
            }
            match format {
                Format::Html => print_html_figure(&figure, highlight),
                Format::Latex => print_latex_figure(&figure, highlight),
                _ => print_svg_figure(&figure, highlight),
            }
        }
    };
    let mut out = io::stdout().lock();
    out.write_all(out_text.as_bytes()).and_then(|()| out.flush()).map_err(Failure::writing)?;
    Ok(ExitCode::SUCCESS)
}

/// The tiled MMA or copy of a spec: its text and its figure, or the error
/// report.
fn tiled_atom(spec: &AtomSpec) -> Result<(String, Figure), String> {
    let fail = |e: cute_dynamic::LayoutError| {
        format!(
            "error: {}
",
            one_line(&e.to_string())
        )
    };
    match spec {
        AtomSpec::Mma { name, layout, permutation } => {
            let atom = MmaAtom::named(name).map_err(fail)?;
            let layout = match layout {
                Some(text) => layout_arg("--atom-layout", text)?,
                None => Layout::scalar(1, 0).map_err(fail)?,
            };
            let permutation = match permutation {
                Some(text) => Some(tiler_arg("--permutation", text)?),
                None => None,
            };
            let mma = make_tiled_mma(&atom, &layout, permutation.as_ref()).map_err(fail)?;
            let (m, n, k) = mma.tile_size_mnk();
            let text = format!(
                "{mma}get_layoutA_TV: {}\nget_layoutB_TV: {}\nget_layoutC_TV: {}\ntile_size_mnk: ({m},{n},{k})\n",
                mma.layout_a_tv(),
                mma.layout_b_tv(),
                mma.layout_c_tv()
            );
            Ok((text, Figure::of_mma(&mma).map_err(fail)?))
        }
        AtomSpec::Copy { name, thr, val, value_bits } => {
            let atom = CopyAtom::named(name, *value_bits).map_err(fail)?;
            let (thr, val) = (layout_arg("--thr-layout", thr)?, layout_arg("--val-layout", val)?);
            let copy = make_tiled_copy(&atom, &thr, &val).map_err(fail)?;
            let text =
                format!("{copy}get_layoutS_TV: {}\nget_layoutD_TV: {}\n", copy.layout_s_tv(), copy.layout_d_tv());
            Ok((text, Figure::of_copy(&copy).map_err(fail)?))
        }
    }
}

/// An option's value evaluated, or the report of its error pointing into it.
fn option_value(option: &str, text: &str) -> Result<Value, String> {
    evaluate(text).map_err(|e| format!("in {option}: {}", error_report(text, &e)))
}

/// A layout option: a layout, or a shape (an integer or tuple) read as
/// CuTe's `Layout<Shape<...>>`, compact column-major with stride 0 on
/// extents of 1.
fn layout_arg(option: &str, text: &str) -> Result<Layout, String> {
    let shape = match option_value(option, text)? {
        Value::Layout(l) => return Ok(l),
        Value::Int(n) => IntTuple::int(n),
        Value::Tuple(t) => t,
        other => {
            return Err(format!("error: {option} must be a layout or a shape, got {}\n", one_line(&other.to_string())));
        }
    };
    let compact = |shape: &IntTuple| -> Result<Layout, cute_dynamic::LayoutError> {
        let l = Layout::column_major(shape)?;
        let strides: Vec<i64> =
            l.shape().leaves().zip(l.stride().leaves()).map(|(s, d)| if s == 1 { 0 } else { d }).collect();
        // The same tree with the new leaves: one leaf at a time, in order.
        let mut leaves = strides.into_iter();
        let stride = retree(l.shape(), &mut leaves);
        Layout::new(l.shape().clone(), stride)
    };
    compact(&shape).map_err(|e| format!("error: {option} {text}: {}\n", one_line(&e.to_string())))
}

/// A tuple of the tree of `shape` with the next leaves of `leaves`.
fn retree(shape: &IntTuple, leaves: &mut impl Iterator<Item = i64>) -> IntTuple {
    if shape.is_int() {
        return IntTuple::int(leaves.next().unwrap_or(0));
    }
    IntTuple::tuple(shape.modes().map(|m| retree(&m, leaves)).collect::<Vec<_>>())
}

/// A tiler option: a tiler, a layout (one mode), or a shape.
fn tiler_arg(option: &str, text: &str) -> Result<Tiler, String> {
    let report = |e: cute_dynamic::LayoutError| format!("error: {option} {text}: {}\n", one_line(&e.to_string()));
    match option_value(option, text)? {
        Value::Tiler(t) => Ok(t),
        Value::Layout(l) => Ok(Tiler::Tuple(vec![Tiler::Layout(l)])),
        Value::Int(n) => Tiler::from_shape(&IntTuple::flat([n])).map_err(report),
        Value::Tuple(t) => Tiler::from_shape(&t).map_err(report),
        other => Err(format!("error: {option} must be a tiler, got {}\n", one_line(&other.to_string()))),
    }
}

/// `cute --banks EXPR [--elem-bytes N]`: the value, then the bank report
/// (`cute_dynamic::bank_conflicts`) of the layout or swizzled layout.
fn run_banks(input: &Input, elem_bytes: i64) -> Result<ExitCode, Failure> {
    let Some(value) = value_or_report(input) else {
        return Ok(ExitCode::from(EXIT_BAD_INPUT));
    };
    match bank_report(&value, elem_bytes) {
        Ok(report) => {
            let mut out = io::stdout().lock();
            write!(out, "{value}\n{report}").and_then(|()| out.flush()).map_err(Failure::writing)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => {
            let p = Problem::Eval(EvalError { column: 1, error });
            let _ = io::stderr().write_all(error_report(&input.text(), &p).as_bytes());
            Ok(ExitCode::from(EXIT_BAD_INPUT))
        }
    }
}

/// The bank report of a layout, a thread-value layout or a swizzled layout.
fn bank_report(value: &Value, elem_bytes: i64) -> Result<String, cute_dynamic::LayoutError> {
    let size = match value {
        Value::Layout(l) | Value::LayoutTv { tv: l, .. } => l.size(),
        Value::Composed(c) => c.size(),
        _ => 0,
    };
    if size > MAX_BANK_ACCESSES {
        let what = format!("--banks of {size} accesses: more than the limit of {MAX_BANK_ACCESSES}");
        return Err(cute_dynamic::LayoutError::Unsupported { what });
    }
    let r = match value {
        Value::Layout(l) | Value::LayoutTv { tv: l, .. } => cute_dynamic::bank_conflicts(l, elem_bytes),
        Value::Composed(c) => cute_dynamic::bank_conflicts_composed(c, elem_bytes),
        other => Err(cute_dynamic::LayoutError::Unsupported {
            what: format!("--banks of {other}: it takes a layout or a swizzled layout"),
        }),
    };
    r.map(|r| r.to_string())
}

/// `cute --suggest-swizzle LAYOUT --write TV --read TV [--elem-bytes N]`:
/// the report of `cute_dynamic::suggest_swizzle`.
fn run_suggest_swizzle(tile: &str, write: &str, read: &str, elem_bytes: i64) -> Result<ExitCode, Failure> {
    let report = swizzle_arguments(tile, write, read).and_then(|(tile, write, read)| {
        cute_dynamic::suggest_swizzle(&tile, elem_bytes, &write, &read)
            .map_err(|e| format!("error: {}\n", one_line(&e.to_string())))
    });
    match report {
        Ok(report) => {
            let mut out = io::stdout().lock();
            write!(out, "{report}").and_then(|()| out.flush()).map_err(Failure::writing)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(message) => {
            let _ = io::stderr().write_all(message.as_bytes());
            Ok(ExitCode::from(EXIT_BAD_INPUT))
        }
    }
}

/// The tile and the two thread-value layouts of `--suggest-swizzle`, or the
/// report of the first bad one (an expression's error points into the
/// argument that has it, named).
fn swizzle_arguments(
    tile: &str,
    write: &str,
    read: &str,
) -> Result<(cute_dynamic::Layout, cute_dynamic::Layout, cute_dynamic::Layout), String> {
    let value = |flag: &str, text: &str| evaluate(text).map_err(|e| format!("in {flag}: {}", error_report(text, &e)));
    let tile = match value("--suggest-swizzle", tile)? {
        Value::Layout(l) => l,
        other => {
            return Err(format!(
                "error: --suggest-swizzle takes the tile's layout (unswizzled), got {}\n",
                one_line(&other.to_string())
            ));
        }
    };
    let modes: Vec<i64> = tile.modes_iter().map(|m| m.size()).collect();
    let pattern = |flag: &str, text: &str| match value(flag, text)? {
        Value::Layout(l) => Ok(l),
        // make_layout_tv's coordinate index `m + M·n` names the cell (m, n)
        // of the tile only when the tile has the same modes.
        Value::LayoutTv { tv, tiler } if tiler.leaves().eq(modes.iter().copied()) => Ok(tv),
        Value::LayoutTv { tiler, .. } => Err(format!(
            "error: {flag} is a thread-value layout on a tile {tiler}, but the tile {tile} has modes of sizes {}, \
             so its coordinate indices would name other cells\n",
            cute_dynamic::IntTuple::flat(modes.iter().copied())
        )),
        other => Err(format!(
            "error: {flag} takes a thread-value layout ((thread, value) to the tile's coordinate index), got {}\n",
            one_line(&other.to_string())
        )),
    };
    let write = pattern("--write", write)?;
    let read = pattern("--read", read)?;
    Ok((tile, write, read))
}

/// Evaluates a line, treating a blank one as an error of its own.
fn evaluate(text: &str) -> Result<Value, Problem> {
    if text.trim().is_empty() {
        return Err(Problem::Empty);
    }
    eval(text).map_err(Problem::Eval)
}

/// Why a line has no value.
enum Problem {
    /// The line is blank.
    Empty,
    /// The evaluator refused it.
    Eval(EvalError),
}

impl Problem {
    fn message(&self) -> String {
        match self {
            Problem::Empty => EMPTY_EXPRESSION.to_string(),
            Problem::Eval(e) => e.to_string(),
        }
    }

    fn column(&self) -> usize {
        match self {
            Problem::Empty => 1,
            Problem::Eval(e) => e.column,
        }
    }
}

/// The stderr report of a bad expression: the message, the expression, and a
/// caret under the error's column.
fn error_report(text: &str, problem: &Problem) -> String {
    let (line, caret) = caret_lines(text, problem.column());
    format!("error: {}\n  {line}\n  {caret}\n", one_line(&problem.message()))
}

/// The expression as one printable line, and the line with the caret under
/// the character at 1-based byte `column` (just past the end if the column
/// is past the end). Control characters are shown as blanks so that the
/// caret stays aligned; tabs are kept in both lines for the same reason.
/// Works on any UTF-8 text: a column inside a multi-byte character points at
/// that character.
fn caret_lines(text: &str, column: usize) -> (String, String) {
    let byte = column.saturating_sub(1);
    let line: String = text.chars().map(|c| if c == '\t' || !c.is_control() { c } else { ' ' }).collect();
    let caret: String = text
        .char_indices()
        .take_while(|&(i, c)| i + c.len_utf8() <= byte)
        .map(|(_, c)| if c == '\t' { '\t' } else { ' ' })
        .chain(std::iter::once('^'))
        .collect();
    (line, caret)
}

/// A message on one line (the batch output has exactly one line per input),
/// with every other control character (an escape code, a NUL byte from the
/// input) written as its escape, never echoed raw to the terminal.
fn one_line(message: &str) -> String {
    message
        .chars()
        .map(|c| match c {
            '\n' | '\r' => " ".to_string(),
            c if c.is_control() => c.escape_default().to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// The `--show` text of a value: the grid of a layout (its first line is the
/// layout), the value line and the grid of a slice's sublayout, or just the
/// value line.
fn picture(value: &Value) -> String {
    match value {
        Value::Layout(l) => grid(l).unwrap_or_else(|| format!("{value}\n")),
        Value::Slice { layout, .. } => {
            let mut s = format!("{value}\n");
            if let Some(g) = grid(layout) {
                s.push_str(&g);
            }
            s
        }
        Value::Composed(c) => composed_grid(c).unwrap_or_else(|| format!("{value}\n")),
        // The TV layout's grid: a row per thread, a column per value, each
        // cell the element of the tile (`--svg` draws the tile itself).
        Value::LayoutTv { tv, .. } => {
            let mut s = format!("{value}\n");
            if let Some(g) = grid(tv) {
                s.push_str(&g);
            }
            s
        }
        // Each cell the coordinate the layout maps to.
        Value::BasisLayout(l) if within_text_limit(l, l.size()) => {
            cute_dynamic::print_basis_layout(l).unwrap_or_else(|e| format!("{value}\nnote: no picture: {e}\n"))
        }
        Value::BasisLayout(_) => format!("{value}\n"),
        _ => {
            let _ = writeln!(
                io::stderr(),
                "note: no picture of {}: --show draws layouts, slices, swizzled, thread-value and basis layouts",
                value.kind()
            );
            format!("{value}\n")
        }
    }
}

/// The SVG, HTML or TikZ picture of a value, or why it has none.
fn drawing(value: &Value, format: Format, highlight: Option<i64>) -> Result<String, String> {
    let grid = match value {
        Value::Layout(l) | Value::Slice { layout: l, .. } => Grid::of_layout(l),
        Value::LayoutTv { tv, tiler } => Grid::of_tv(tv, tiler),
        Value::Composed(c) => Grid::of_composed(c),
        Value::BasisLayout(l) => {
            return Err(format!(
                "cannot draw {l} as a picture: its values are coordinates, not offsets; `cute --show` draws its grid of coordinates"
            ));
        }
        other => {
            return Err(format!(
                "cannot draw {other}: pictures are of a layout, a slice, a swizzled layout or a thread-value layout (make_layout_tv)"
            ));
        }
    }
    .map_err(|e| e.to_string())?;
    if let Some(k) = highlight {
        match grid.threads() {
            None => return Err(format!("--highlight-thread {k}: {} is not a thread-value layout", grid.title())),
            Some(t) if !(0..t).contains(&k) => return Err(format!("--highlight-thread {k}: the threads are 0..{t}")),
            Some(_) => {}
        }
    }
    Ok(match format {
        Format::Html => print_html(&grid, highlight),
        Format::Latex => print_latex(&grid, highlight),
        _ => print_svg(&grid, highlight),
    })
}

/// The grid of a swizzled (composed) layout, as `print_layout` draws it,
/// with the same size limit as [`grid`].
fn composed_grid(layout: &cute_dynamic::ComposedLayout) -> Option<String> {
    if !within_text_limit(layout, layout.size()) {
        return None;
    }
    cute_dynamic::print_composed_layout(layout).ok()
}

/// `print_layout`, or `None` (and a note on stderr) when the grid would be
/// too large to be useful.
fn grid(layout: &cute_dynamic::Layout) -> Option<String> {
    within_text_limit(layout, layout.size()).then(|| print_layout(layout))
}

/// Whether `--show` draws a grid of `cells` cells; if not, a note on stderr
/// says so.
fn within_text_limit(what: &dyn std::fmt::Display, cells: i64) -> bool {
    if cells > MAX_PICTURE_CELLS {
        let _ = writeln!(
            io::stderr(),
            "note: not drawing {what}: {cells} cells is more than the limit of {MAX_PICTURE_CELLS}"
        );
        return false;
    }
    true
}

/// `cute --batch`: one output line per input line; a bad line never stops it.
fn run_batch() -> Result<ExitCode, Failure> {
    let mut input = io::BufReader::with_capacity(1 << 16, io::stdin().lock());
    let mut out = BufWriter::new(io::stdout().lock());
    let mut buf = Vec::new();
    let mut any_error = false;
    loop {
        buf.clear();
        let n = input.read_until(b'\n', &mut buf).map_err(|e| Failure::Io("reading stdin", e))?;
        if n == 0 {
            break;
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
        }
        let line = match std::str::from_utf8(&buf) {
            Ok(text) => match evaluate(text) {
                Ok(v) => format!("{v}"),
                Err(p) => {
                    any_error = true;
                    format!("error: {}", one_line(&p.message()))
                }
            },
            Err(_) => {
                any_error = true;
                "error: line is not valid UTF-8".to_string()
            }
        };
        writeln!(out, "{line}").map_err(Failure::writing)?;
        // Each answer is written as it is computed: a program talking to
        // `cute --batch` through pipes gets it at once, and nothing already
        // answered is lost whatever happens to a later line.
        out.flush().map_err(Failure::writing)?;
    }
    out.flush().map_err(Failure::writing)?;
    Ok(if any_error { ExitCode::from(EXIT_BAD_INPUT) } else { ExitCode::SUCCESS })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_under_ascii_column() {
        let (line, caret) = caret_lines("size(4:1", 9);
        assert_eq!(line, "size(4:1");
        assert_eq!(caret, "        ^");
        assert_eq!(caret_lines("abc", 1).1, "^");
        assert_eq!(caret_lines("abc", 0).1, "^");
        assert_eq!(caret_lines("abc", 100).1, "   ^");
    }

    #[test]
    fn caret_counts_characters_not_bytes() {
        // 'é' is two bytes: byte column 4 is the 'x' after it, the third character.
        assert_eq!(caret_lines("aéx", 4).1, "  ^");
        // A column inside the multi-byte character points at that character.
        assert_eq!(caret_lines("aéx", 3).1, " ^");
        // Tabs stay tabs; other control characters are shown as blanks.
        let (line, caret) = caret_lines("\ta\nb", 4);
        assert_eq!(line, "\ta b");
        assert_eq!(caret, "\t  ^");
    }

    #[test]
    fn command_is_well_formed() {
        command().debug_assert();
    }
}
