from coderefine.cli import main

raise SystemExit(main())
