// Every call of the Go files named on standard input (paths relative to the repository root,
// the first argument), with the function or method go/types ties it to: one JSON line per
// call,
//
//	{"path": P, "line": L, "column": C, "name": N, "defs": [[P2, L2]], "answered": true}
//
// (line 1-based, column 0-based in UTF-16 units, of the called name; the declaration's path
// and the line of its name; "defs" empty when it is outside the given files or not a function
// (a conversion, a builtin, a variable holding a function); "answered" false where go/types
// could not tell, e.g. a call into a module that is not here: packages outside the module
// (go.mod's) are checked as empty). A package's own test files are checked with it; an
// external test package (name_test) on its own.
//
// Run by eval/go_references_truth.py: go run go_calls.go ROOT < FILES
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
	"unicode/utf16"
)

type row struct {
	Path     string          `json:"path"`
	Line     int             `json:"line"`
	Column   int             `json:"column"`
	Name     string          `json:"name"`
	Defs     [][]interface{} `json:"defs"`
	Answered bool            `json:"answered"`
}

var (
	root    string
	module  string
	fset    = token.NewFileSet()
	files   = map[string][]*ast.File{} // "dir|package" -> files
	sources = map[string][]byte{}      // absolute path -> text
	checked = map[string]*types.Package{}
	ours    = map[*types.Package]bool{} // the packages checked from the files here
	stdlib  = importer.Default()
)

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
		if rel == "" {
			continue
		}
		abs := filepath.Join(root, rel)
		text, err := os.ReadFile(abs)
		if err != nil {
			continue
		}
		f, err := parser.ParseFile(fset, abs, text, parser.SkipObjectResolution)
		if f == nil {
			continue
		}
		sources[abs] = text
		key := filepath.Dir(rel) + "|" + f.Name.Name
		files[key] = append(files[key], f)
	}
	keys := make([]string, 0, len(files))
	for k := range files {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := json.NewEncoder(os.Stdout)
	for _, key := range keys {
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: imp{}, Error: func(error) {}}
		pkg, _ := conf.Check(key, fset, files[key], info)
		ours[pkg] = true
		for _, f := range files[key] {
			report(out, f, info)
		}
	}
}

type imp struct{}

// Import checks a package of the module from its files here (without its tests), takes the
// standard library's from the toolchain, and gives any other package as an empty one.
func (imp) Import(p string) (*types.Package, error) {
	if pkg, ok := checked[p]; ok {
		return pkg, nil
	}
	var pkg *types.Package
	if module != "" && (p == module || strings.HasPrefix(p, module+"/")) {
		dir := strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
		if dir == "" {
			dir = "."
		}
		for key, fs := range files {
			if strings.HasPrefix(key, dir+"|") && !strings.HasSuffix(key, "_test") {
				var own []*ast.File
				for _, f := range fs {
					if !strings.HasSuffix(fset.Position(f.Pos()).Filename, "_test.go") {
						own = append(own, f)
					}
				}
				checked[p] = types.NewPackage(p, fs[0].Name.Name) // an import cycle stops here
				conf := types.Config{Importer: imp{}, Error: func(error) {}}
				pkg, _ = conf.Check(p, fset, own, nil)
				ours[pkg] = true
				break
			}
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

func report(out *json.Encoder, f *ast.File, info *types.Info) {
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fun := call.Fun
		for {
			paren, ok := fun.(*ast.ParenExpr)
			if !ok {
				break
			}
			fun = paren.X
		}
		if index, ok := fun.(*ast.IndexExpr); ok {
			fun = index.X
		}
		var id *ast.Ident
		switch x := fun.(type) {
		case *ast.Ident:
			id = x
		case *ast.SelectorExpr:
			id = x.Sel
		default:
			return true
		}
		at := fset.Position(id.Pos())
		r := row{Path: relative(at.Filename), Line: at.Line, Column: column(at), Name: id.Name, Defs: [][]interface{}{}}
		obj := info.Uses[id]
		r.Answered = obj != nil && obj.Pkg() != nil || isBuiltin(obj)
		if fn, ok := obj.(*types.Func); ok && fn.Pos().IsValid() && ours[fn.Pkg()] {
			where := fset.Position(fn.Pos())
			if strings.HasPrefix(where.Filename, root+string(filepath.Separator)) {
				r.Defs = append(r.Defs, []interface{}{relative(where.Filename), where.Line})
			}
		}
		out.Encode(r)
		return true
	})
}

func isBuiltin(obj types.Object) bool {
	_, ok := obj.(*types.Builtin)
	return ok
}

func relative(abs string) string {
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return abs
	}
	return filepath.ToSlash(rel)
}

// column: the 0-based column of a position in UTF-16 units (as the evaluation counts).
func column(at token.Position) int {
	text := sources[at.Filename]
	start := at.Offset - (at.Column - 1)
	if start < 0 || at.Offset > len(text) {
		return at.Column - 1
	}
	return len(utf16.Encode([]rune(string(text[start:at.Offset]))))
}
