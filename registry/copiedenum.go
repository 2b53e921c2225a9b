package registry

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/babelqueue/bqgen/internal/model"
)

// checkCopiedEnums reports BQ042: an inline enum of a message that has the same kind
// and the same values, in the same order, as the inline enum at the same JSON path of
// the message it supersedes. Each inline enum is its own Go type (`RideStartedPlan`,
// `RideStartedV2Plan`), so the copy gives the two versions two types for one set of
// values; a named type under `types:` gives them one. Enums reached through a named
// type are shared already and not reported.
func checkCopiedEnums(l *loader) {
	byURN := make(map[string]*model.Message, len(l.reg.Messages))
	for _, m := range l.reg.Messages {
		byURN[m.URN] = m
	}
	for _, m := range l.reg.Messages {
		old := byURN[m.Supersedes]
		if m.Supersedes == "" || old == nil {
			continue
		}
		l.curLint = m.Lint
		l.copiedEnums(m, old.Data, m.Data, nil)
	}
	l.curLint = nil
}

// copiedEnums compares the schemas a (of the superseded message) and b (of m) at the
// JSON path path (property names; "[]" for items, "{}" for map values).
func (l *loader) copiedEnums(m *model.Message, a, b *model.Schema, path []string) {
	if a == nil || b == nil || a.Kind == model.Ref || b.Kind == model.Ref || a.Kind != b.Kind {
		return
	}
	if len(a.Enum) > 0 && reflect.DeepEqual(a.Enum, b.Enum) && len(path) > 0 {
		pos := b.Pos
		if p, ok := b.KeyPos("enum"); ok {
			pos = p
		}
		field := path[len(path)-1]
		for i := len(path) - 1; i >= 0 && (field == "[]" || field == "{}"); i-- {
			field = path[i]
		}
		name := l.freeTypeName(camelGuess(field), m)
		l.report(pos, RuleCopiedEnum,
			fmt.Sprintf("the enum of %s in message %q repeats the enum of %s in %q, which it supersedes: the generated code declares two Go types for the same values",
				jsonPath(path), m.URN, jsonPath(path), m.Supersedes),
			fmt.Sprintf("move it to `types:` (`%s: {type: %s, enum: […]}`) and write `type: %s` at %s in both messages, so both versions share one type", name, builtinName(b.Kind), name, jsonPath(path)))
		return
	}
	switch b.Kind {
	case model.Object:
		for _, bp := range b.Properties {
			for _, ap := range a.Properties {
				if ap.Name == bp.Name {
					l.copiedEnums(m, ap.Schema, bp.Schema, append(path, bp.Name))
				}
			}
		}
	case model.Array:
		l.copiedEnums(m, a.Items, b.Items, append(path, "[]"))
	case model.Map:
		l.copiedEnums(m, a.Values, b.Values, append(path, "{}"))
	}
}

// jsonPath renders a path of copiedEnums as the JSON path of the data block
// (`$.plan`, `$.lines[].code`, `$.tags{}`), property names quoted when they are not
// plain words.
func jsonPath(path []string) string {
	var b strings.Builder
	b.WriteString("$")
	for _, p := range path {
		switch p {
		case "[]", "{}":
			b.WriteString(p)
		default:
			b.WriteString(".")
			b.WriteString(p)
		}
	}
	return b.String()
}

// builtinName is the registry's type name of a built-in kind with enums.
func builtinName(k model.Kind) string {
	for name, kd := range builtinKinds {
		if kd == k {
			return name
		}
	}
	return "string"
}

// freeTypeName returns name when no named type has it, else the name prefixed with
// the message's Go-like name (`RideStartedPlan`), else that with a number: a name the
// hint can propose without a collision (BQ030) or a clash with an existing type.
func (l *loader) freeTypeName(name string, m *model.Message) string {
	if l.reg.Type(name) == nil {
		return name
	}
	_, event, _ := strings.Cut(strings.TrimPrefix(m.URN, "urn:babel:"), ":")
	base, _, _ := urnVersion(event)
	prefixed := camelGuess(strings.NewReplacer(".", "_", "-", "_").Replace(base)) + name
	if l.reg.Type(prefixed) == nil {
		return prefixed
	}
	for i := 2; ; i++ {
		if n := prefixed + strconv.Itoa(i); l.reg.Type(n) == nil {
			return n
		}
	}
}
