# The call sites TypeProf (Ruby's bundled type analyzer) ties to a method it analyzed, one a
# line, tab-separated: caller path, line, column, callee name, callee path, callee's def line.
# A development-time oracle for eval/ruby_references_truth.py, never a dependency of the
# project:  ruby eval/typeprof_calls.rb ROOT SECONDS FILE...
require "typeprof"
require "stringio"
require "set"

SEEN = Set.new

module TypeProf
  class ISeq
    alias_method :codeagent_add_called_iseq, :add_called_iseq

    # every call TypeProf's abstract interpretation sends to a method body it has
    def add_called_iseq(pc, callee_iseq)
      insn = @insns[pc]
      if callee_iseq && insn&.code_range && %i[send invokesuper].include?(insn.insn)
        at = insn.code_range.first
        SEEN << [@path, at.lineno, at.column, callee_iseq.name, callee_iseq.path,
                 callee_iseq.start_lineno]
      end
      codeagent_add_called_iseq(pc, callee_iseq)
    end
  end
end

root, seconds, *files = ARGV
texts = files.map { |f| [File.join(root, f), File.read(File.join(root, f))] }
config = TypeProf::ConfigData.new(
  rb_files: texts, rbs_files: [], output: StringIO.new, max_sec: seconds.to_i, verbose: 0,
  options: { show_indicator: false, show_errors: false, lsp: true }
)
TypeProf.analyze(config)
prefix = File.join(root, "")
SEEN.each do |caller, line, column, name, callee, def_line|
  next unless caller.start_with?(prefix) && callee&.start_with?(prefix)
  puts [caller.delete_prefix(prefix), line, column, name, callee.delete_prefix(prefix),
        def_line].join("\t")
end
