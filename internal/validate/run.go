package validate

import (
	"bytes"

	"fmt"
	"github.com/babelqueue/bqgen/internal/emit/golang/rt"
	"io"
	"os"

	"github.com/babelqueue/bqgen/internal/termtext"
)

// MaxBody is the largest message read, in bytes; a larger one is rejected (malformed).
const MaxBody = 64 << 20

// Result counts the outcome of Files.
type Result struct {
	Valid, Invalid int
	// IOErrors counts inputs that could not be read (reported on errOut).
	IOErrors int
}

// Files validates each named input ("-" is stdin): as full envelopes, or as bare data
// of urn when urn is not "". An input holds one message or a stream of them (JSON
// lines, or values one after another); in a stream, message N is named "NAME:N". For
// each message it prints to out either "NAME: valid" or one line per problem,
// "NAME: PATH: KIND: MESSAGE". Inputs that cannot be read are
// reported on errOut and counted in IOErrors. The error is for a URN the registry does
// not define and for a schema that does not compile.
func Files(v *Validator, names []string, urn string, stdin io.Reader, out, errOut io.Writer) (Result, error) {
	var res Result
	if urn != "" && v.reg.Message(urn) == nil {
		return res, fmt.Errorf("--urn %q: the registry does not define it", urn)
	}
	for _, name := range names {
		display := termtext.Name(name)
		body, err := readInput(name, stdin)
		if name == "-" {
			display = "<stdin>"
		}
		if err != nil {
			fmt.Fprintf(errOut, "%s: %s\n", display, termtext.Line(err.Error()))
			res.IOErrors++
			continue
		}
		msgs := splitMessages(body)
		for i, msg := range msgs {
			name := display
			if len(msgs) > 1 {
				name = fmt.Sprintf("%s:%d", display, i+1)
			}
			var problems []Problem
			switch {
			case len(msg) > MaxBody:
				problems = []Problem{{Path: "$", Kind: Malformed, Message: fmt.Sprintf("larger than %d bytes", MaxBody)}}
			case urn != "":
				problems, err = v.Data(urn, msg)
			default:
				problems, err = v.Envelope(msg)
			}
			if err != nil {
				return res, err
			}
			if len(problems) == 0 {
				fmt.Fprintf(out, "%s: valid\n", name)
				res.Valid++
				continue
			}
			res.Invalid++
			for _, p := range problems {
				fmt.Fprintf(out, "%s: %s\n", name, p)
			}
		}
	}
	return res, nil
}

func readInput(name string, stdin io.Reader) ([]byte, error) {
	var r io.Reader
	if name == "-" {
		if stdin == nil {
			return nil, fmt.Errorf("no standard input")
		}
		r = stdin
	} else {
		info, err := os.Stat(name)
		if err != nil {
			return nil, err
		}
		if info.IsDir() {
			return nil, fmt.Errorf("is a directory")
		}
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	return io.ReadAll(io.LimitReader(r, MaxBody+1))
}

// splitMessages cuts body into the JSON values it holds, one after another (JSON lines
// or concatenated values). When a value does not parse, the rest of body is returned as
// one last element, so that its syntax error is reported by the validator.
func splitMessages(body []byte) [][]byte {
	var out [][]byte
	for rest := body; len(bytes.TrimSpace(rest)) > 0; {
		n, ok := rt.NextValue(rest)
		if !ok {
			out = append(out, rest)
			break
		}
		out = append(out, rest[:n])
		rest = rest[n:]
	}
	if len(out) == 0 {
		out = append(out, body) // empty or blank input: reported as malformed
	}
	return out
}
