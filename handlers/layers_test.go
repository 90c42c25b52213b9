package handlers_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The layers of ARCHITECTURE.md, held by their imports: handlers speak HTTP
// and call services, so no handler file reaches the store; domain packages
// know nothing of HTTP or of the handlers; only the report printer renders
// a view outside handlers/.
func TestLayersKeepTheirImports(t *testing.T) {
	rules := []struct {
		dir       string // folder from the module root, walked
		tests     bool   // whether _test.go files are held to it too
		forbidden string // import path or prefix
		except    []string
		why       string
	}{
		{"handlers", false, "selfmap/internal/store", nil,
			"a handler calls a service; the service calls the store"},
		{"internal", true, "selfmap/handlers", nil,
			"domain packages do not know the HTTP layer; wiring is in app/"},
		{"internal", false, "github.com/labstack/echo", nil,
			"domain packages speak no HTTP"},
		{"internal", false, "selfmap/views", []string{"internal/reportpdf"},
			"domain packages build data, views render it (the PDF printer renders the report view)"},
		{"views", false, "selfmap/internal/store", nil,
			"views are fed view models, not rows"},
	}
	for _, r := range rules {
		for _, v := range importsUnder(t, filepath.Join("..", r.dir), r.tests) {
			if !strings.HasPrefix(v.path, r.forbidden) || excepted(v.file, r.except) {
				continue
			}
			t.Errorf("%s imports %s: %s", v.file, v.path, r.why)
		}
	}
}

type imported struct{ file, path string }

// importsUnder lists the imports of every Go file under dir (generated templ
// files included: they are code too).
func importsUnder(t *testing.T, dir string, tests bool) []imported {
	t.Helper()
	var out []imported
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		if !tests && strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("..", path)
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			out = append(out, imported{filepath.ToSlash(rel), p})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no Go files under %s: the rule checks nothing", dir)
	}
	return out
}

func excepted(file string, except []string) bool {
	for _, e := range except {
		if strings.HasPrefix(file, e+"/") {
			return true
		}
	}
	return false
}
