package patience

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// deadlineCalls take a deadline as an argument: the one at index arg must
// come from this package (or be at least Hang).
var deadlineCalls = map[string]int{
	"WithTimeout":        1, // context.WithTimeout(parent, d)
	"WithPollingTimeout": 0, // chromedp.WithPollingTimeout(d)
	"readWithin":         0, // a test socket's read with a deadline
	"SetDeadline":        0,
	"SetReadDeadline":    0,
	"SetWriteDeadline":   0,
	"runWithin":          1,
	"waitWithin":         1,
	"closeWithin":        0, // a test socket read until it closes
}

// TestNoShortDeadlines reads every _test.go file of the module and fails on
// a hard-coded deadline shorter than Hang: a constant duration handed to
// context.WithTimeout, chromedp.WithPollingTimeout or a socket's deadline;
// added to time.Now() to make a variable named like a deadline or a loop's
// end; or waited on by time.After in a select whose case fails the test. A
// window that looks for something that must not happen, or a duration
// handed to the code under test, is none of these.
func TestNoShortDeadlines(t *testing.T) {
	root := filepath.Join("..", "..")
	consts := map[string]map[string]time.Duration{} // per directory
	type file struct {
		path string
		f    *ast.File
	}
	var files []file
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files = append(files, file{path, f})
		dir := filepath.Dir(path)
		if consts[dir] == nil {
			consts[dir] = map[string]time.Duration{}
		}
		for _, decl := range f.Decls {
			if g, ok := decl.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, spec := range g.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if i < len(vs.Values) {
							if d, ok := duration(vs.Values[i], nil); ok {
								consts[dir][name.Name] = d
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 50 {
		t.Fatalf("read only %d test files from %s", len(files), root)
	}
	var found []string
	for _, fl := range files {
		found = append(found, shortDeadlines(fset, fl.f, consts[filepath.Dir(fl.path)])...)
	}
	for _, f := range found {
		t.Error(f)
	}
}

// shortDeadlines lists file's hard-coded deadlines shorter than hang.
func shortDeadlines(fset *token.FileSet, file *ast.File, consts map[string]time.Duration) []string {
	var out []string
	seen := map[int]bool{} // lines: a loop's end is also a variable named deadline
	report := func(n ast.Node, d time.Duration, how string) {
		if line := fset.Position(n.Pos()).Line; d < hang && !seen[line] {
			seen[line] = true
			out = append(out, fset.Position(n.Pos()).String()+": a "+d.String()+" deadline "+how+"; take it from patience (Hang, Context, Until)")
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if arg, ok := deadlineCalls[callName(n)]; ok && arg < len(n.Args) {
				if d, ok := duration(n.Args[arg], consts); ok {
					report(n, d, "given to "+callName(n))
				}
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok || i >= len(n.Rhs) || !strings.Contains(strings.ToLower(id.Name), "deadline") && !strings.Contains(strings.ToLower(id.Name), "timeout") {
					continue
				}
				if d, ok := fromNow(n.Rhs[i], consts); ok {
					report(n, d, "in "+id.Name)
				}
			}
		case *ast.ForStmt:
			if n.Init != nil {
				if as, ok := n.Init.(*ast.AssignStmt); ok && len(as.Rhs) == 1 {
					if d, ok := fromNow(as.Rhs[0], consts); ok {
						report(n, d, "ending a loop")
					}
				}
			}
		case *ast.CommClause:
			if recv, ok := n.Comm.(*ast.ExprStmt); ok && failsTest(n.Body) {
				if u, ok := recv.X.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
					if call, ok := u.X.(*ast.CallExpr); ok && callName(call) == "After" && len(call.Args) == 1 {
						if d, ok := duration(call.Args[0], consts); ok {
							report(n, d, "in a select that fails the test")
						}
					}
				}
			}
		}
		return true
	})
	return out
}

// fromNow is d for time.Now().Add(d), time.After(d).
func fromNow(e ast.Expr, consts map[string]time.Duration) (time.Duration, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return 0, false
	}
	switch callName(call) {
	case "Add":
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			if inner, ok := sel.X.(*ast.CallExpr); ok && callName(inner) == "Now" {
				return duration(call.Args[0], consts)
			}
		}
	case "After":
		return duration(call.Args[0], consts)
	}
	return 0, false
}

// failsTest is whether a case's own statements (not those under a
// condition: a retry's pause checks a deadline of its own) call t.Fatal,
// t.Fatalf, t.Error, t.Errorf or t.FailNow.
func failsTest(stmts []ast.Stmt) bool {
	for _, s := range stmts {
		if e, ok := s.(*ast.ExprStmt); ok {
			if c, ok := e.X.(*ast.CallExpr); ok {
				switch callName(c) {
				case "Fatal", "Fatalf", "Error", "Errorf", "FailNow":
					return true
				}
			}
		}
	}
	return false
}

func callName(c *ast.CallExpr) string {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	case *ast.IndexExpr:
		if id, ok := f.X.(*ast.Ident); ok {
			return id.Name
		}
	}
	return ""
}

// duration evaluates a constant duration: time.Second, 5 * time.Second,
// 1500 * time.Millisecond, a constant of the package's tests. Anything else
// is not hard-coded.
func duration(e ast.Expr, consts map[string]time.Duration) (time.Duration, bool) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return duration(e.X, consts)
	case *ast.BasicLit:
		if e.Kind == token.INT {
			n, err := strconv.ParseInt(e.Value, 0, 64)
			return time.Duration(n), err == nil
		}
	case *ast.Ident:
		d, ok := consts[e.Name]
		return d, ok
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok && x.Name == "time" {
			units := map[string]time.Duration{"Nanosecond": time.Nanosecond, "Microsecond": time.Microsecond,
				"Millisecond": time.Millisecond, "Second": time.Second, "Minute": time.Minute, "Hour": time.Hour}
			d, ok := units[e.Sel.Name]
			return d, ok
		}
	case *ast.BinaryExpr:
		a, okA := duration(e.X, consts)
		b, okB := duration(e.Y, consts)
		if !okA || !okB {
			return 0, false
		}
		switch e.Op {
		case token.MUL:
			return a * b, true
		case token.ADD:
			return a + b, true
		case token.SUB:
			return a - b, true
		case token.QUO:
			if b != 0 {
				return a / b, true
			}
		}
	}
	return 0, false
}

// TestShortDeadlinesAreFound: the scan finds each kind of hard-coded
// deadline, and leaves alone windows that look for what must not happen.
func TestShortDeadlinesAreFound(t *testing.T) {
	const src = `package x
const step = 5 * time.Second
func f() {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	ctx, cancel = context.WithTimeout(ctx, step)
	chromedp.Poll(js, nil, chromedp.WithPollingTimeout(10*time.Second))
	deadline := time.Now().Add(time.Minute)
	for deadline := time.Now().Add(15 * time.Second); ; {}
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatal("hung")
	}
	select {
	case <-ch:
		t.Fatal("must not arrive")
	case <-time.After(200 * time.Millisecond):
	}
	ctx, cancel = context.WithTimeout(ctx, patience.Hang())
	ctx, cancel = context.WithTimeout(ctx, 10*time.Minute)
	lease := time.Now().Add(time.Second)
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x_test.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]time.Duration{"step": 5 * time.Second}
	got := shortDeadlines(fset, f, consts)
	if len(got) != 6 {
		t.Fatalf("found %d, want 6:\n%s", len(got), strings.Join(got, "\n"))
	}
	for i, line := range []int{4, 5, 6, 7, 8, 11} {
		if !strings.HasPrefix(got[i], "x_test.go:"+strconv.Itoa(line)+":") {
			t.Errorf("finding %d is %s, want line %d", i, got[i], line)
		}
	}
}

func TestSlow(t *testing.T) {
	for _, c := range []struct {
		env  string
		want float64
	}{{"", 1}, {"2", 2}, {"0.5", 1}, {"x", 1}, {"3.5", 3.5}} {
		t.Setenv("FRAY_TEST_SLOW", c.env)
		if got := Slow(); got != c.want {
			t.Errorf("FRAY_TEST_SLOW=%q: %v, want %v", c.env, got, c.want)
		}
	}
	t.Setenv("FRAY_TEST_SLOW", "2")
	if Hang() != 2*hang {
		t.Errorf("Hang %v with FRAY_TEST_SLOW=2", Hang())
	}
	_ = os.Getenv
}
