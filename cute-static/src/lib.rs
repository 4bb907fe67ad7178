//! Placeholder: see the cute-static core issue.
