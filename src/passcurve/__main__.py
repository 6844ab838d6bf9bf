from passcurve.cli import main

main()
