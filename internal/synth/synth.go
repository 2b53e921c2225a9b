// Package synth writes deterministic synthetic registries (docs/registry-format.md) for
// benchmarks and scale tests: N message URNs over N/20 bounded contexts, about
// 20 fields each, mixing every type of the registry format (nested objects,
// arrays of objects, named types shared across messages, enums, money,
// timestamps, maps, nullable and optional fields, int32, integers carried as
// strings, patterns and formats), and a .v2 for one URN in ten.
//
// The output depends only on N and the seed: the same arguments give the same
// bytes on every run and platform. Every registry it writes loads with
// registry.LoadFiles without errors.
package synth

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// Options configure Registry.
type Options struct {
	// Messages is the number of message URNs (N). Values below 1 mean 1.
	Messages int
	// Seed selects the field mix; 0 is a fine default.
	Seed uint64
	// Package is the go.package of the registry; "" means "events".
	Package string
	// Evolve writes the next version of the same registry, as a pull request might
	// change it (for `bqgen diff` benchmarks): one message in 20 gains an optional
	// field (compatible), one in 100 also a new summary (a doc edit), and one in 200
	// a new required field (breaking under BACKWARD). Every other byte is the same.
	Evolve bool
}

// PerContext is the number of URNs per bounded context.
const PerContext = 20

// FieldsPerMessage is the number of data fields of every synthetic message.
const FieldsPerMessage = 20

// Registry returns the YAML text of a synthetic registry, as one file.
func Registry(o Options) []byte {
	var b strings.Builder
	files := Files(o)
	b.WriteString(strings.TrimSuffix(string(files["registry.yaml"]), " {}\n") + "\n")
	for _, name := range fileNames(files) {
		if name != "registry.yaml" {
			b.Write(files[name][len(messagesHeader):])
		}
	}
	return []byte(b.String())
}

// messagesHeader starts every file of Files but the first.
const messagesHeader = "version: 1\nmessages:\n"

// Files returns a synthetic registry as a directory of files (what
// `bqgen -r DIR` reads): registry.yaml with the named types, and one file of
// messages per bounded context (<context>.yaml), so that no file comes near
// the loader's size limit at 10,000 URNs.
func Files(o Options) map[string][]byte {
	n := max(o.Messages, 1)
	pkg := o.Package
	if pkg == "" {
		pkg = "events"
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x62716765_6e73796e)) // "bqgensyn"
	var head strings.Builder
	head.WriteString("# Synthetic registry written by internal/synth. Do not edit.\n")
	fmt.Fprintf(&head, "version: 1\nconsumers: [go, php]\ngo:\n  package: %s\n\n", pkg)
	head.WriteString(namedTypes)
	head.WriteString("\nmessages: {}\n")
	contexts := (n + PerContext - 1) / PerContext
	bufs := make([]strings.Builder, contexts)
	for i := 0; i < n; i++ {
		ctx := contextName(i % contexts)
		b := &bufs[i%contexts]
		if b.Len() == 0 {
			b.WriteString(messagesHeader)
		}
		verb := verbs[(i/contexts)%len(verbs)]
		noun := nouns[(i/contexts/len(verbs))%len(nouns)]
		name := fmt.Sprintf("%s%d.%s", noun, i/contexts/len(verbs)/len(nouns), verb)
		if i/contexts/len(verbs)/len(nouns) == 0 {
			name = noun + "." + verb
		}
		urn := "urn:babel:" + ctx + ":" + name
		writeMessage(b, rng, urn, "", i, o.Evolve)
		if i%10 == 0 {
			writeMessage(b, rng, urn+".v2", urn, i, false)
		}
	}
	files := map[string][]byte{"registry.yaml": []byte(head.String())}
	for c := range bufs {
		files[contextName(c)+".yaml"] = []byte(bufs[c].String())
	}
	return files
}

// fileNames returns the names of files, sorted.
func fileNames(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// contextName returns the name of the bounded context number i: a word plus a
// number when the words run out.
func contextName(i int) string {
	w := contextWords[i%len(contextWords)]
	if k := i / len(contextWords); k > 0 {
		return fmt.Sprintf("%s%d", w, k)
	}
	return w
}

var contextWords = []string{"orders", "billing", "shipping", "inventory", "catalog", "accounts",
	"payments", "notifications", "reviews", "returns", "pricing", "search", "loyalty", "support",
	"warehouse", "marketing", "analytics", "identity", "media", "fulfilment"}

var nouns = []string{"order", "invoice", "parcel", "item", "product", "user", "payment", "message",
	"review", "refund", "price", "query", "reward", "ticket", "slot", "campaign"}

var verbs = []string{"created", "updated", "deleted", "approved", "rejected", "archived",
	"restored", "expired", "assigned", "completed"}

// namedTypes are the reusable types every message draws on.
const namedTypes = `types:
  Address:
    type: object
    description: A postal address.
    required: [line1, city, country]
    properties:
      line1: {type: string, minLength: 1, maxLength: 200, x-gdpr-sensitive: true}
      line2: {type: string, maxLength: 200}
      city: {type: string, minLength: 1, maxLength: 100}
      postal_code: {type: string, maxLength: 16, x-gdpr-sensitive: postal}
      country: {type: string, pattern: "^[A-Z]{2}$"}
  Customer:
    type: object
    required: [customer_id, email]
    properties:
      customer_id: {type: uuid}
      email: {type: string, format: email, maxLength: 254, x-gdpr-sensitive: contact}
      display_name: {type: string, maxLength: 80, nullable: true}
      address: {type: Address}
  Sku:
    type: string
    pattern: "^[A-Z0-9-]{3,32}$"
  Status:
    type: string
    enum: [pending, active, suspended, closed]
  Labels:
    type: array
    maxItems: 10
    uniqueItems: true
    items: {type: string, minLength: 1, maxLength: 32}
  LineItem:
    type: object
    required: [sku, quantity, unit_price]
    properties:
      sku: {type: Sku}
      quantity: {type: integer, format: int32, minimum: 1, maximum: 1000}
      unit_price: {type: money}
      discount_rate: {type: number, minimum: 0, maximum: 1}
  GeoPoint:
    type: object
    required: [lat, lon]
    properties:
      lat: {type: number, minimum: -90, maximum: 90}
      lon: {type: number, minimum: -180, maximum: 180}
`

// field is one property template: its YAML (after "name: ") and whether it is
// required. Names are made unique per message by the caller.
type field struct {
	name     string
	yaml     string
	required bool
}

// pool is every field template; each message takes FieldsPerMessage of them.
// The first few are always present so that every message has an id, a money
// amount and a timestamp.
var pool = []field{
	{"id", "{type: integer, minimum: 1, maximum: 9007199254740991}", true},
	{"total", "{type: money}", true},
	{"occurred_at", "{type: timestamp}", true},
	{"name", "{type: string, minLength: 1, maxLength: 100}", true},
	{"status", "{type: Status}", true},
	{"reference", "{type: uuid}", false},
	{"quantity", "{type: integer, format: int32, minimum: 0, maximum: 100000}", false},
	{"weight_kg", "{type: number, minimum: 0, maximum: 100000}", false},
	{"active", "{type: boolean}", false},
	{"email", "{type: string, format: email, maxLength: 254, x-gdpr-sensitive: contact}", false},
	{"sku", "{type: Sku}", false},
	{"note", "{type: string, maxLength: 500, nullable: true, description: Free text.}", false},
	{"tags", "{type: array, maxItems: 20, items: {type: string, maxLength: 64}}", false},
	{"attributes", "{type: map, values: {type: string, maxLength: 200}}", false},
	{"shipping", "{type: Address}", false},
	{"billing", "{type: Address, nullable: true}", true},
	{"customer", "{type: Customer}", false},
	{"score", "{type: number, exclusiveMinimum: 0, exclusiveMaximum: 1}", false},
	{"ledger_ref", "{type: integer, encoding: string}", false},
	{"channel", "{type: string, enum: [web, mobile, pos, api]}", false},
	{"priority", "{type: integer, enum: [1, 2, 3]}", false},
	{"updated_at", "{type: timestamp, nullable: true}", false},
	{"labels", "{type: Labels}", false},
	{"location", "{type: GeoPoint}", false},
	{"website", "{type: string, format: uri, maxLength: 2000}", false},
	{"due_date", "{type: string, format: date}", false},
	{"locale", "{type: string, pattern: \"^[a-z]{2}(-[A-Z]{2})?$\"}", false},
	{"retries", "{type: integer, format: int32, minimum: 0, maximum: 10, nullable: true}", false},
	{"legacy_code", "{type: string, deprecated: Use reference.}", false},
	{"counts", "{type: map, values: {type: integer, minimum: 0, maximum: 1000000}}", false},
	{"lines", `
          type: array
          minItems: 1
          maxItems: 500
          items: {type: LineItem}`, true},
	{"parts", `
          type: array
          items:
            type: object
            required: [code, amount]
            properties:
              code: {type: string, pattern: "^[A-Z]{3}[0-9]{2}$"}
              amount: {type: money}
              note: {type: string, maxLength: 80, nullable: true}`, false},
	{"details", `
          type: object
          required: [source]
          properties:
            source: {type: string, enum: [import, manual, sync]}
            batch: {type: integer, minimum: 0, maximum: 1000000000}
            checked_at: {type: timestamp}
            flags: {type: array, uniqueItems: true, items: {type: string, maxLength: 16}}`, false},
	{"dimensions", `
          type: object
          additionalProperties: false
          properties:
            width_mm: {type: integer, minimum: 0, maximum: 100000}
            height_mm: {type: integer, minimum: 0, maximum: 100000}
            unit: {type: string, enum: [mm, cm]}`, false},
	{"contacts", "{type: map, x-gdpr-sensitive: contact, values: {type: Customer}}", false},
	{"ratio", "{type: number, nullable: true}", false},
}

// widenEnums gives a .v2 one more value in each inline enum of the pool, as a successor
// that widens its predecessor's enums does.
var widenEnums = strings.NewReplacer("[web, mobile, pos, api]", "[web, mobile, pos, api, kiosk]", "[1, 2, 3]", "[1, 2, 3, 4]",
	"[import, manual, sync]", "[import, manual, sync, api]", "[mm, cm]", "[mm, cm, m]")

// fixedFields is how many templates at the head of pool every message has.
const fixedFields = 5

func writeMessage(b *strings.Builder, rng *rand.Rand, urn, supersedes string, i int, evolve bool) {
	evolve = evolve && i%20 == 7
	// Pick the fields: the fixed head, then a seeded choice of the rest, kept in
	// pool order so that messages look alike.
	rest := rng.Perm(len(pool) - fixedFields)[:FieldsPerMessage-fixedFields]
	pick := make([]bool, len(pool))
	for j := 0; j < fixedFields; j++ {
		pick[j] = true
	}
	for _, r := range rest {
		pick[fixedFields+r] = true
	}
	closed := false
	var req []string
	for j, f := range pool {
		if pick[j] {
			if f.required {
				req = append(req, f.name)
			}
			if f.name == "dimensions" {
				closed = true
			}
		}
	}
	fmt.Fprintf(b, "  %s:\n", urn)
	if i%3 == 1 {
		b.WriteString("    kind: command\n")
	} else {
		b.WriteString("    kind: event\n")
	}
	if evolve && i%100 == 7 {
		fmt.Fprintf(b, "    summary: Synthetic message number %d, revised.\n", i)
	} else {
		fmt.Fprintf(b, "    summary: Synthetic message number %d.\n", i)
	}
	fmt.Fprintf(b, "    owner: team%d\n", i%7)
	if supersedes != "" {
		fmt.Fprintf(b, "    supersedes: %s\n", supersedes)
	} else if i%10 == 0 {
		// Superseded by the .v2 written next: deprecated (BQ065).
		fmt.Fprintf(b, "    deprecated: Use %s.v2.\n", urn)
	}
	if closed {
		b.WriteString("    lint:\n      ignore: [BQ032]\n      reason: The dimensions block is closed on purpose.\n")
	}
	b.WriteString("    data:\n")
	if evolve && i%200 == 7 {
		req = append(req, "evolved_ref")
	}
	fmt.Fprintf(b, "      required: [%s]\n", strings.Join(req, ", "))
	b.WriteString("      properties:\n")
	for j, f := range pool {
		if !pick[j] {
			continue
		}
		y := f.yaml
		if supersedes != "" {
			y = widenEnums.Replace(y) // a .v2 that copied its predecessor's inline enums is BQ042
		}
		if strings.HasPrefix(y, "\n") {
			fmt.Fprintf(b, "        %s:%s\n", f.name, y)
		} else {
			fmt.Fprintf(b, "        %s: %s\n", f.name, y)
		}
	}
	if evolve {
		b.WriteString("        evolved_note: {type: string, maxLength: 500}\n")
		if i%200 == 7 {
			b.WriteString("        evolved_ref: {type: integer, minimum: 1, maximum: 1000000}\n")
		}
	}
}
