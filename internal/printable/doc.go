// Package printable keeps text that came from outside (a variant's or an
// axis's name, a label, a file name) from acting on a terminal or a page:
// every control character but tab, line feed and carriage return is shown
// as a visible stand-in (ESC as ␛, the C0 controls as their Unicode
// control pictures, DEL as ␡), and the C1 controls, the bidirectional
// overrides and invalid UTF-8 as U+FFFD. String maps one string; a Writer
// maps everything written through it, for a terminal or a text file.
package printable
