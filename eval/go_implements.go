// Which named types implement each interface of a Go module, as go/types says: one JSON line
// per interface with at least one method,
//
//	{"iface": [P, L, N], "types": [[P2, L2, N2], ...]}
//
// then one per type of the module (not an interface) that structs of the module embed (a
// field without a name),
//
//	{"embedded": [P, L, N], "types": [[P2, L2, N2], ...]}
//
// (the path relative to the repository root, the line of the name, the name), a type listed
// when it or a pointer to it has the interface's whole method set (types.Implements); a
// generic interface is left out (its instances are what a type implements). The
// packages are those of the module (go.mod's) whose folders hold the files named on standard
// input, checked without their test files; the standard library is taken from the toolchain,
// any other package is an empty one (so a method that names one of its types may not match).
//
// Run by eval/go_implements_truth.py and tests/symbols/test_go_implementations.py:
// go run go_implements.go ROOT < FILES
package main

import (
	"bufio"
	"encoding/json"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

var (
	root    string
	module  string
	fset    = token.NewFileSet()
	folders = map[string][]*ast.File{} // folder -> its non-test files
	checked = map[string]*types.Package{}
	stdlib  = importer.Default()
)

type place = []interface{}

type row struct {
	Iface place   `json:"iface,omitempty"`
	Embed place   `json:"embedded,omitempty"`
	Types []place `json:"types"`
}

func main() {
	root, _ = filepath.Abs(os.Args[1])
	if text, err := os.ReadFile(filepath.Join(root, "go.mod")); err == nil {
		for _, line := range strings.Split(string(text), "\n") {
			if strings.HasPrefix(line, "module ") {
				module = strings.TrimSpace(strings.TrimPrefix(line, "module "))
			}
		}
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		rel := strings.TrimSpace(in.Text())
		if rel == "" || strings.HasSuffix(rel, "_test.go") {
			continue
		}
		abs := filepath.Join(root, rel)
		f, _ := parser.ParseFile(fset, abs, nil, parser.SkipObjectResolution)
		if f != nil {
			folders[filepath.ToSlash(filepath.Dir(rel))] = append(folders[filepath.ToSlash(filepath.Dir(rel))], f)
		}
	}
	var named []*types.TypeName
	dirs := make([]string, 0, len(folders))
	for dir := range folders {
		dirs = append(dirs, dir)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		p := module
		if dir != "." {
			p = module + "/" + dir
		}
		pkg, _ := imp{}.Import(p)
		for _, name := range pkg.Scope().Names() {
			if tn, ok := pkg.Scope().Lookup(name).(*types.TypeName); ok && !tn.IsAlias() {
				named = append(named, tn)
			}
		}
	}
	out := json.NewEncoder(os.Stdout)
	for _, iface := range named {
		it, ok := iface.Type().Underlying().(*types.Interface)
		if !ok || it.NumMethods() == 0 || !it.IsMethodSet() {
			continue
		}
		if n, ok := iface.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
			continue // a generic interface is implemented by its instances: not asked here
		}
		r := row{Iface: where(iface), Types: []place{}}
		for _, t := range named {
			if _, isIface := t.Type().Underlying().(*types.Interface); isIface {
				continue
			}
			if types.Implements(t.Type(), it) || types.Implements(types.NewPointer(t.Type()), it) {
				r.Types = append(r.Types, where(t))
			}
		}
		out.Encode(r)
	}
	// and each type of the module that structs embed, with the structs that embed it
	embedders := map[*types.TypeName][]place{}
	for _, t := range named {
		st, ok := t.Type().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for i := 0; i < st.NumFields(); i++ {
			f := st.Field(i)
			if !f.Embedded() {
				continue
			}
			ft := f.Type()
			if p, ok := ft.(*types.Pointer); ok {
				ft = p.Elem()
			}
			if n, ok := ft.(*types.Named); ok {
				embedders[n.Obj()] = append(embedders[n.Obj()], where(t))
			}
		}
	}
	for _, t := range named {
		if _, isIface := t.Type().Underlying().(*types.Interface); isIface {
			continue // an interface's subclasses are its implementations (above) too
		}
		if found, ok := embedders[t]; ok {
			out.Encode(row{Embed: where(t), Types: found})
		}
	}
}

func where(tn *types.TypeName) place {
	at := fset.Position(tn.Pos())
	rel, _ := filepath.Rel(root, at.Filename)
	return place{filepath.ToSlash(rel), at.Line, tn.Name()}
}

type imp struct{}

// Import checks a package of the module from its files here, takes the standard library's
// from the toolchain, and gives any other package as an empty one.
func (imp) Import(p string) (*types.Package, error) {
	if pkg, ok := checked[p]; ok {
		return pkg, nil
	}
	var pkg *types.Package
	if p == module || strings.HasPrefix(p, module+"/") {
		dir := strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
		if dir == "" {
			dir = "."
		}
		if fs := folders[dir]; len(fs) > 0 {
			checked[p] = types.NewPackage(p, fs[0].Name.Name) // an import cycle stops here
			conf := types.Config{Importer: imp{}, Error: func(error) {}}
			pkg, _ = conf.Check(p, fset, fs, nil)
		}
	} else if !strings.Contains(strings.SplitN(p, "/", 2)[0], ".") {
		pkg, _ = stdlib.Import(p)
	}
	if pkg == nil {
		pkg = types.NewPackage(p, path.Base(p))
		pkg.MarkComplete()
	}
	checked[p] = pkg
	return pkg, nil
}
