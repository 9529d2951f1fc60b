// The calls a compiled C# assembly makes between its own methods, as the compiler bound them:
// the truth of eval/csharp_references_truth.py and tests/symbols/test_csharp_targets.py.
//
//     mcs -out:calls.exe eval/CsCalls.cs && mono calls.exe ASSEMBLY.dll
//
// Prints a line per type of the assembly (TYPE<TAB><TAB><TAB>type: the code compiled), then
// one per call or `new` of the assembly's own code, in its IL:
//     TYPE<TAB>METHOD<TAB>CALLEE<TAB>KIND
// TYPE is the type whose code makes the call, namespace-qualified, nested types joined by '.'
// ('Shop.Net.Client'), METHOD the method's name (a constructor's: its type's; an accessor's as
// compiled: get_Name; a static constructor's, which runs static fields' initializers: its
// type's too); CALLEE is TYPE.NAME of the method called; a `new T(..)` is KIND "new"
// with CALLEE the type. Code the compiler generates for a lambda, an iterator or an async
// method is its method's (`<Main>b__0_0` is Main's). Calls of accessors and operators, a
// constructor's call of its base or of another one (`: base(..)`, `: this(..)`), a delegate's
// (made or invoked), a foreach's GetEnumerator and MoveNext (no call is written) and the
// compiler's own helpers are left out. A call of another assembly's method (not an accessor),
// or a `new` of its type, by the name written:
//     TYPE<TAB>METHOD<TAB>NAME<TAB>outside
using System;
using System.Collections.Generic;
using System.Reflection;
using System.Reflection.Emit;

static class CsCalls
{
    static readonly Dictionary<short, OpCode> Codes = new Dictionary<short, OpCode>();

    static int Main(string[] args)
    {
        foreach (FieldInfo f in typeof(OpCodes).GetFields(BindingFlags.Public | BindingFlags.Static))
        {
            OpCode code = (OpCode)f.GetValue(null);
            Codes[code.Value] = code;
        }
        Assembly assembly = Assembly.LoadFrom(args[0]);
        Type[] types;
        try { types = assembly.GetTypes(); }
        catch (ReflectionTypeLoadException e) { types = Array.FindAll(e.Types, t => t != null); }
        const BindingFlags all = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance
            | BindingFlags.Static | BindingFlags.DeclaredOnly;
        foreach (Type type in types)
        {
            if (!type.Name.StartsWith("<")) Console.WriteLine(TypeName(type) + "\t\t\ttype");
            var bodies = new List<MethodBase>();
            bodies.AddRange(type.GetMethods(all));
            bodies.AddRange(type.GetConstructors(all));
            foreach (MethodBase method in bodies)
            {
                string caller = Caller(method);
                if (caller == null) continue;
                MethodBody body;
                try { body = method.GetMethodBody(); } catch (Exception) { continue; }
                if (body == null) continue;
                Read(method, body.GetILAsByteArray(), caller, assembly);
            }
        }
        return 0;
    }

    static void Read(MethodBase method, byte[] il, string caller, Assembly assembly)
    {
        int i = 0;
        while (i < il.Length)
        {
            short value = il[i] == 0xFE ? (short)(0xFE00 | il[i + 1]) : (short)il[i];
            OpCode code;
            if (!Codes.TryGetValue(value, out code)) return;  // not IL we can read: stop
            i += code.Size;
            if (code == OpCodes.Call || code == OpCodes.Callvirt || code == OpCodes.Newobj)
            {
                int token = BitConverter.ToInt32(il, i);
                MethodBase callee = null;
                try
                {
                    callee = method.Module.ResolveMethod(token,
                        method.DeclaringType.IsGenericType ? method.DeclaringType.GetGenericArguments() : null,
                        method.IsGenericMethod ? method.GetGenericArguments() : null);
                }
                catch (Exception) { }
                if (callee != null && callee.Module.Assembly == assembly)
                    Write(caller, callee, code == OpCodes.Newobj, method);
                else if (callee != null && code == OpCodes.Newobj && callee.DeclaringType != null)
                    Console.WriteLine(caller + "\t" + Bare(callee.DeclaringType.Name) + "\toutside");
                else if (callee != null && !callee.IsSpecialName)
                    Console.WriteLine(caller + "\t" + callee.Name + "\toutside");
            }
            i += OperandSize(code, il, i);
        }
    }

    static void Write(string caller, MethodBase callee, bool made, MethodBase from)
    {
        Type owner = callee.DeclaringType;
        if (owner == null || owner.Name.StartsWith("<")) return;
        if (typeof(Delegate).IsAssignableFrom(owner)) return;  // a delegate made or invoked
        if (made)
        {
            Console.WriteLine(caller + "\t" + TypeName(owner) + "\tnew");
            return;
        }
        if (callee.IsConstructor || callee.IsSpecialName || callee.Name.StartsWith("<")) return;
        if (callee.Name == "GetEnumerator" || callee.Name == "MoveNext") return;  // a foreach's
        Console.WriteLine(caller + "\t" + TypeName(owner) + "." + callee.Name + "\tcall");
    }

    // The method a body is written in: a lambda's, an iterator's or an async method's code
    // is its method's; None for accessors, operators and the compiler's own methods.
    static string Caller(MethodBase method)
    {
        Type type = method.DeclaringType;
        string name = method.IsConstructor ? type.Name : method.Name;
        if (name.StartsWith("<"))  // <Main>b__0_0: Main's lambda
        {
            int end = name.IndexOf('>');
            if (end <= 1) return null;
            name = name.Substring(1, end - 1);
        }
        while (type != null && type.Name.StartsWith("<"))  // a display class, a state machine
        {
            string generated = type.Name;
            int end = generated.IndexOf('>');
            if (generated.Contains(">d__") && end > 1) name = generated.Substring(1, end - 1);
            type = type.DeclaringType;
        }
        if (type == null) return null;
        return TypeName(type) + "\t" + name;
    }

    static string Bare(string name)  // List`1: List
    {
        int tick = name.IndexOf('`');
        return tick >= 0 ? name.Substring(0, tick) : name;
    }

    static string TypeName(Type type)
    {
        string name = Bare(type.Name);
        if (type.IsNested) return TypeName(type.DeclaringType) + "." + name;
        return string.IsNullOrEmpty(type.Namespace) ? name : type.Namespace + "." + name;
    }

    static int OperandSize(OpCode code, byte[] il, int at)
    {
        switch (code.OperandType)
        {
            case OperandType.InlineNone: return 0;
            case OperandType.ShortInlineBrTarget:
            case OperandType.ShortInlineI:
            case OperandType.ShortInlineVar: return 1;
            case OperandType.InlineVar: return 2;
            case OperandType.InlineI8:
            case OperandType.InlineR: return 8;
            case OperandType.InlineSwitch: return 4 + 4 * BitConverter.ToInt32(il, at);
            default: return 4;
        }
    }
}
