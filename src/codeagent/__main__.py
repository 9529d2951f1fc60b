from codeagent.cli.main import main

main()
