// Every method call and `new` of the Java files named on standard input (paths relative to the
// repository root, the first argument), with the declaration javac's attribution ties it to:
// one JSON line per site,
//   {"path": P, "line": L, "column": C, "name": N, "defs": [[P2, L2]], "answered": true}
// (line 1-based, column 0-based in characters, of the called name; the declaration's path and
// the line of its name; "defs" empty when it lies outside the given files; "answered" false
// where javac could not attribute the call, e.g. a type of a library that is not here).
// Run by eval/java_references_truth.py with the JDK's source launcher:
//   git ls-files '*.java' | java JavaCalls.java ROOT
import com.sun.source.tree.*;
import com.sun.source.util.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.regex.*;
import javax.lang.model.element.*;
import javax.tools.*;

public class JavaCalls {
  static Path root;
  static Trees trees;
  static JavacTask task;
  static final Map<CompilationUnitTree, String> texts = new HashMap<>();

  public static void main(String[] args) throws Exception {
    root = Paths.get(args[0]).toAbsolutePath().normalize();
    List<File> files = new ArrayList<>();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      if (!line.isBlank()) files.add(root.resolve(line.strip()).toFile());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticListener<JavaFileObject> quiet = d -> {};
    StandardJavaFileManager fm = javac.getStandardFileManager(quiet, null, StandardCharsets.UTF_8);
    List<String> options = List.of("-proc:none", "-implicit:none", "-nowarn", "-Xmaxerrs", "0");
    task = (JavacTask) javac.getTask(
        null, fm, quiet, options, null, fm.getJavaFileObjectsFromFiles(files));
    Iterable<? extends CompilationUnitTree> units = task.parse();
    try {
      task.analyze();
    } catch (Throwable t) {
      // attribution that stopped on an error still leaves what it attributed
    }
    trees = Trees.instance(task);
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
    for (CompilationUnitTree unit : units) {
      String path = relative(unit);
      String text = text(unit);
      SourcePositions positions = trees.getSourcePositions();
      new TreePathScanner<Void, Void>() {
        @Override
        public Void visitMethodInvocation(MethodInvocationTree node, Void v) {
          ExpressionTree select = node.getMethodSelect();
          String name = select instanceof MemberSelectTree m
              ? m.getIdentifier().toString() : ((IdentifierTree) select).getName().toString();
          long end = positions.getEndPosition(unit, select);
          emit(out, unit, path, text, (int) end - name.length(), name, getCurrentPath());
          return super.visitMethodInvocation(node, v);
        }

        @Override
        public Void visitNewClass(NewClassTree node, Void v) {
          Tree type = node.getIdentifier();
          if (type instanceof ParameterizedTypeTree p) type = p.getType();
          if (type instanceof AnnotatedTypeTree a) type = a.getUnderlyingType();
          String name = type instanceof MemberSelectTree m ? m.getIdentifier().toString()
              : type instanceof IdentifierTree i ? i.getName().toString() : null;
          if (name != null) {
            long end = positions.getEndPosition(unit, type);
            emit(out, unit, path, text, (int) end - name.length(), name, getCurrentPath());
          }
          return super.visitNewClass(node, v);
        }
      }.scan(unit, null);
    }
    out.flush();
  }

  static String relative(CompilationUnitTree unit) {
    return root.relativize(Paths.get(unit.getSourceFile().toUri()).normalize()).toString();
  }

  static String text(CompilationUnitTree unit) {
    return texts.computeIfAbsent(unit, u -> {
      try {
        return u.getSourceFile().getCharContent(true).toString();
      } catch (IOException e) {
        return "";
      }
    });
  }

  static void emit(PrintStream out, CompilationUnitTree unit, String path, String text, int at,
      String name, TreePath where) {
    if (at < 0) return;
    LineMap lines = unit.getLineMap();
    long line = lines.getLineNumber(at);
    long column = at - lines.getStartPosition(line);
    Element e = trees.getElement(where);
    boolean answered = e instanceof ExecutableElement;
    String defs = "[]";
    if (answered) {
      Declared found = declared((ExecutableElement) e);
      if (found != null) defs = "[[" + quote(found.path()) + ", " + found.line() + "]]";
    }
    out.println("{\"path\": " + quote(path) + ", \"line\": " + line + ", \"column\": " + column
        + ", \"name\": " + quote(name) + ", \"defs\": " + defs + ", \"answered\": " + answered + "}");
  }

  // A declaration of the given files: its path, the line of its name.
  record Declared(String path, long line) {}

  // The line of the declaration's name (a method's, or for a constructor javac made, the
  // class's), when it is in the given files.
  // An anonymous class's constructor is no declaration of the repository (none is written).
  static Declared declared(ExecutableElement e) {
    Element owner = e.getEnclosingElement();
    if (owner instanceof TypeElement t && t.getNestingKind() == NestingKind.ANONYMOUS) return null;
    // a constructor javac made (a class that declares none) is the class's
    boolean made = task.getElements().getOrigin(e) == javax.lang.model.util.Elements.Origin.MANDATED;
    Declared found = made ? null : declaredAt(e, trees.getPath(e), owner);
    if (found == null && e.getKind() == ElementKind.CONSTRUCTOR) {
      found = declaredAt(e, trees.getPath(owner), owner);
    }
    return found;
  }

  static Declared declaredAt(ExecutableElement e, TreePath path, Element owner) {
    if (path == null) return null;
    CompilationUnitTree unit = path.getCompilationUnit();
    Tree leaf = path.getLeaf();
    String text = text(unit);
    SourcePositions positions = trees.getSourcePositions();
    long from;
    Pattern pattern;
    if (leaf instanceof MethodTree m) {
      from = positions.getEndPosition(unit, m.getModifiers());
      if (m.getReturnType() != null) from = positions.getEndPosition(unit, m.getReturnType());
      String name = e.getKind() == ElementKind.CONSTRUCTOR
          ? owner.getSimpleName().toString() : m.getName().toString();
      pattern = Pattern.compile("\\b" + Pattern.quote(name) + "\\s*\\(");
    } else if (leaf instanceof ClassTree c) {
      from = positions.getEndPosition(unit, c.getModifiers());
      pattern = Pattern.compile("\\b" + Pattern.quote(c.getSimpleName().toString()) + "\\b");
    } else {
      return null;
    }
    if (from < 0) from = positions.getStartPosition(unit, leaf);
    Matcher m = pattern.matcher(text);
    if (from < 0 || !m.find((int) from)) return null;
    return new Declared(relative(unit), unit.getLineMap().getLineNumber(m.start()));
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }
}
