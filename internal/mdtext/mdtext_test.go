package mdtext

import "testing"

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, with (parens) and 'quotes'.":                                                  "plain text, with (parens) and 'quotes'.",
		"# Heading [click](http://evil.example) <img src=x onerror=alert(1)> ![i](http://t/p.png)": `\# Heading \[click\](http\://evil.example) \<img src=x onerror=alert(1)\> \!\[i\](http\://t/p.png)`,
		"o | x ](http://evil) <b>":                                                                 `o \| x \](http\://evil) \<b\>`,
		"*em* _em_ ~~s~~ a&amp;b":                                                                  `\*em\* \_em\_ \~\~s\~\~ a\&amp;b`,
		"line1\nline2\r\nline3":                                                                    "line1 line2 line3",
		"keep `a <b> | c` verbatim":                                                                "keep `a <b> | c` verbatim",
		"unclosed ``` fence":                                                                       "unclosed \\`\\`\\` fence",
		"see www.evil.example":                                                                     `see www\.evil.example`,
		"awww.x":                                                                                   "awww.x",
		"mail x@evil.example":                                                                      `mail x\@evil.example`,
		"- item":                                                                                   `\- item`,
		"+ item":                                                                                   `\+ item`,
		"===":                                                                                      `\===`,
		"1. item":                                                                                  `1\. item`,
		"12) item":                                                                                 `12\) item`,
		"1.5 seconds":                                                                              "1.5 seconds",
		"a - b + c = d":                                                                            "a - b + c = d",
		`back\slash`:                                                                               `back\\slash`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCell(t *testing.T) {
	for in, want := range map[string]string{
		"a|b\r\nc":                  `a\|b<br>c`,
		" one | two\nthree ":        `one \| two<br>three`,
		"code `x|y` and `p\\|q`":    "code `x\\|y` and `p\\|q`",
		"<script>x</script>\n# h":   `\<script\>x\</script\><br>\# h`,
		"[l](http://e.example)|z":   `\[l\](http\://e.example)\|z`,
		"code `\\\\|` even slashes": "code `\\\\\\|` even slashes",
	} {
		if got := Cell(in); got != want {
			t.Errorf("Cell(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBlock(t *testing.T) {
	in := "  First paragraph,\r\n  still first.\n\n\n# Injected heading\n<script>alert(1)</script>\n---\n    indented\n```\n"
	want := "First paragraph,\nstill first.\n\n\\# Injected heading\n\\<script\\>alert(1)\\</script\\>\n\\---\nindented\n\\`\\`\\`"
	if got := Block(in); got != want {
		t.Errorf("Block = %q, want %q", got, want)
	}
	if got := Block(" \n\n "); got != "" {
		t.Errorf("Block(blank) = %q", got)
	}
}

func TestCode(t *testing.T) {
	for in, want := range map[string]string{
		"a":      "`a`",
		"a`b":    "``a`b``",
		"`a":     "`` `a ``",
		"x|y":    "`x|y`",
		"l1\nl2": "`l1\\nl2`",
	} {
		if got := Code(in); got != want {
			t.Errorf("Code(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"a":      "`a`",
		"a`b":    "``a`b``",
		"`a":     "`` `a ``",
		"x|y":    "`x\\|y`",
		`x\|y`:   "`x\\|y`",
		"l1\nl2": "`l1 l2`",
	} {
		if got := CellCode(in); got != want {
			t.Errorf("CellCode(%q) = %q, want %q", in, got, want)
		}
	}
}
