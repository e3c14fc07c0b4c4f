package coverage

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/regate/regate/internal/printable"
)

// WriteJSON writes the report as one JSON document.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// WriteTable writes one line per rule in file order, then the decisions no
// written rule made.
func (r Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE AT\tLAYER\tSURFACE\tPATTERN\tACTION\tDECIDED\tSHADOWED\tUSE")
	for _, rule := range r.Rules {
		layer := rule.Layer
		if rule.Agent != "" {
			layer += " " + rule.Agent
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\n", printable.String(rule.Pos), layer, rule.Surface,
			printable.String(rule.Pattern), rule.Action, rule.Decided, rule.Shadowed, rule.Use())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	used := 0
	for _, rule := range r.Rules {
		if rule.Decided > 0 {
			used++
		}
	}
	fmt.Fprintf(w, "%d decisions; %d of %d rules decided at least one", r.Decisions, used, len(r.Rules))
	for _, layer := range slices.Sorted(maps.Keys(r.Unattributed)) {
		fmt.Fprintf(w, "; %d by %s", r.Unattributed[layer], layer)
	}
	_, err := fmt.Fprintln(w)
	return err
}

// A Source is a rule file the HTML page shows, with line anchors.
type Source struct {
	Name string
	Data []byte
}

// WriteHTML writes a self-contained page: the rules in file order, each row
// coloured by its use and linked to the rule's line in the sources, which
// follow the table with an anchor per line (id "f<source index>-L<line>"). A
// rule of a file not among sources has no link.
func (r Report) WriteHTML(w io.Writer, sources []Source) error {
	type line struct {
		ID, Text string
	}
	type file struct {
		Name  string
		Lines []line
	}
	var files []file
	index := map[string]int{}
	for k, s := range sources {
		index[s.Name] = k
		f := file{Name: s.Name}
		for i, text := range strings.Split(strings.TrimSuffix(string(s.Data), "\n"), "\n") {
			f.Lines = append(f.Lines, line{ID: lineID(k, i+1), Text: text})
		}
		files = append(files, f)
	}
	type row struct {
		Rule
		Use, Href string
	}
	rows := make([]row, len(r.Rules))
	for i, rule := range r.Rules {
		rows[i] = row{Rule: rule, Use: rule.Use()}
		if k, ok := index[rule.File]; ok {
			rows[i].Href = "#" + lineID(k, rule.Line)
		}
	}
	return page.Execute(w, map[string]any{"Report": r, "Rows": rows, "Files": files})
}

// lineID is the anchor of a line of the k-th source: "f0-L12". File names
// are not used, as they may hold anything an id or a URL fragment cannot.
func lineID(k, line int) string { return fmt.Sprintf("f%d-L%d", k, line) }

var page = template.Must(template.New("coverage").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>regate rule coverage</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em; }
table { border-collapse: collapse; }
td, th { padding: 0.2em 0.6em; border-bottom: 1px solid #ddd; text-align: left; }
.used { background: #e6f4ea; }
.shadowed { background: #fff4d6; }
.unused { background: #f1f1f1; }
.dead { background: #fde2e1; }
.key { padding: 0 0.3em; }
pre { background: #fafafa; padding: 0.5em; }
pre span:target { background: #ffe58f; }
</style>
</head>
<body>
<h1>Rule coverage</h1>
<p id="summary">{{.Report.Decisions}} decisions, {{len .Rows}} rules. Rows:
<span class="key used">used</span> decided a call,
<span class="key shadowed">shadowed</span> only matched calls a more specific rule decided,
<span class="key unused">unused</span> matched nothing,
<span class="key dead">dead</span> can never decide (a hard guard or a more specific rule covers it).
Each rule links to its line below.</p>
<table id="rules">
<thead><tr><th>rule at</th><th>layer</th><th>surface</th><th>pattern</th><th>action</th><th>decided</th><th>shadowed</th><th>use</th></tr></thead>
<tbody>
{{range .Rows}}<tr class="{{.Use}}" data-pattern="{{.Pattern}}"><td>{{if .Href}}<a href="{{.Href}}">{{.Pos}}</a>{{else}}{{.Pos}}{{end}}</td><td>{{.Layer}}{{if .Agent}} {{.Agent}}{{end}}</td><td>{{.Surface}}</td><td><code>{{.Pattern}}</code></td><td>{{.Action}}</td><td>{{.Decided}}</td><td>{{.Shadowed}}</td><td>{{.Use}}</td></tr>
{{end}}</tbody>
</table>
{{range .Files}}<h2>{{.Name}}</h2>
<pre>{{range .Lines}}<span id="{{.ID}}">{{.Text}}</span>
{{end}}</pre>
{{end}}</body>
</html>
`))
