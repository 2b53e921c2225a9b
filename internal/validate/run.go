package validate

import (
	"fmt"
	"io"
	"os"

	"github.com/babelqueue/bqgen/internal/termtext"
)

// MaxBody is the default largest message, in bytes (Options.MaxMessage). The limit
// applies to each message of an input, however long the input is.
const MaxBody = 64 << 20

// Options controls Files.
type Options struct {
	// URN, when not "", makes each message the bare data of that URN instead of an
	// envelope.
	URN string
	// MaxMessage is the largest message checked, in bytes (MaxBody when 0). A longer
	// one is a malformed problem at $, and the input is read on after it.
	MaxMessage int
}

// Message is the outcome of one message of an input.
type Message struct {
	// Input is the input's name as given ("-" for standard input).
	Input string
	// Index is the message's position in the input, from 1; Line the line it starts on.
	Index, Line int
	// Stream is true when the input holds more than one message.
	Stream bool
	// Problems is empty when the message is valid.
	Problems []Problem
}

// Result counts the outcome of Files.
type Result struct {
	Valid, Invalid int
	// IOErrors counts inputs that could not be read (reported on errOut).
	IOErrors int
}

// Files validates each named input ("-" is stdin) and calls report with the outcome of
// each message, in order. An input holds one message or a stream of them (JSON lines,
// or values one after another); it is read once, in time linear in its size and memory
// bounded by the largest message, never held whole (splitter). An input that cannot be
// read, or fails while being read, is reported on errOut as "NAME: error" and counted
// in IOErrors. The error is for a URN the registry does not define, a schema that does
// not compile, or an error of report (which stops Files).
func Files(v *Validator, names []string, opts Options, stdin io.Reader, report func(Message) error, errOut io.Writer) (Result, error) {
	var res Result
	if opts.URN != "" && v.reg.Message(opts.URN) == nil {
		return res, fmt.Errorf("--urn %q: the registry does not define it", opts.URN)
	}
	max := opts.MaxMessage
	if max <= 0 {
		max = MaxBody
	}
	for _, name := range names {
		display := termtext.Name(name)
		if name == "-" {
			display = "<stdin>"
		}
		r, closeInput, err := openInput(name, stdin)
		if err != nil {
			fmt.Fprintf(errOut, "%s: %s\n", display, termtext.Line(err.Error()))
			res.IOErrors++
			continue
		}
		err = v.stream(name, r, max, opts.URN, &res, report)
		closeInput()
		if err != nil {
			if rerr, ok := err.(readError); ok {
				fmt.Fprintf(errOut, "%s: %s\n", display, termtext.Line(rerr.Error()))
				res.IOErrors++
				continue
			}
			return res, err
		}
	}
	return res, nil
}

// readError is a failure to read an input, as opposed to one of validation or report.
type readError struct{ error }

// stream validates the messages of one input.
func (v *Validator) stream(name string, r io.Reader, max int, urn string, res *Result, report func(Message) error) error {
	s := newSplitter(r, max)
	index := 0
	for more := s.skipSpace(); more || index == 0; {
		var msg []byte
		line := s.line
		var size int64
		if more {
			msg, line, size = s.next()
			more = s.skipSpace()
		}
		index++
		m := Message{Input: name, Index: index, Line: line, Stream: more || index > 1}
		var err error
		switch {
		case msg == nil && size > 0:
			m.Problems = []Problem{{Path: "$", Kind: Malformed, Message: fmt.Sprintf("message of %d bytes is larger than the limit of %d bytes", size, max)}}
		case urn != "":
			m.Problems, err = v.Data(urn, msg)
		default:
			m.Problems, err = v.Envelope(msg) // empty or blank input: malformed
		}
		if err != nil {
			return err
		}
		if len(m.Problems) == 0 {
			res.Valid++
		} else {
			res.Invalid++
		}
		if err := report(m); err != nil {
			return err
		}
	}
	if s.err != nil && s.err != io.EOF {
		return readError{s.err}
	}
	return nil
}

// openInput opens a named input ("-": stdin) for reading.
func openInput(name string, stdin io.Reader) (io.Reader, func(), error) {
	if name == "-" {
		if stdin == nil {
			return nil, nil, fmt.Errorf("no standard input")
		}
		return stdin, func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	if info, err := f.Stat(); err == nil && info.IsDir() {
		f.Close()
		return nil, nil, fmt.Errorf("is a directory")
	}
	return f, func() { f.Close() }, nil
}
